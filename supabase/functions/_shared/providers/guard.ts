// A team's own provider base URL is an address a user chose, so it is fetched like every
// other such address (safe-fetch.ts): private, loopback, link-local and metadata addresses
// are refused (loopback and private ones allowed by the dev setting PARLEY_FETCH_ALLOW_PRIVATE),
// checked before the first request and, for the SDKs that take a fetch, on every request,
// with redirects not followed. The platform's own base URLs (PARLEY_<PROVIDER>_BASE_URL) are
// the operator's choice and are not checked.
import { assertUrlAllowed } from "../safe-fetch.ts";
import { ProviderError, type GenerateEvent, type ProviderName } from "./types.ts";

/** fetch for vendor SDKs aimed at a team's base URL. */
export const guardedFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  await assertUrlAllowed(url);
  return fetch(input, { ...init, redirect: "error" });
};

/** The provider's events, after checking the team's base URL (a refusal is a provider_bad_request). */
export async function* checkedBaseUrl<E = GenerateEvent>(
  baseUrl: string,
  provider: ProviderName,
  generate: () => AsyncIterable<E>,
): AsyncGenerator<E> {
  try {
    await assertUrlAllowed(new URL(baseUrl));
  } catch (err) {
    throw new ProviderError("provider_bad_request", provider, null, `base URL refused: ${(err as Error).message}`);
  }
  yield* generate();
}
