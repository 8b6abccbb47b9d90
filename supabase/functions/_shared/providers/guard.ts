// A team's own provider base URL is an address a user chose, so it is fetched like every
// other such address (safe-fetch.ts): private, loopback, link-local and metadata addresses
// are refused (loopback and private ones allowed by the dev setting PARLEY_FETCH_ALLOW_PRIVATE),
// checked before the first request and again on every request the vendor SDK makes (every
// adapter hands its SDK `config.fetch`), each request connected to the address that was checked
// (no second DNS answer), and a redirect refused, never followed. The platform's own base URLs
// (PARLEY_<PROVIDER>_BASE_URL) are the operator's choice and are not checked.
import { checkedAddresses, pinnedRequest, type SafeFetchOptions } from "../safe-fetch.ts";
import { ProviderError, type GenerateEvent, type ProviderName } from "./types.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A fetch for vendor SDKs aimed at a team's base URL (`resolve`/`allowPrivate`: test seams). */
export function createGuardedFetch(options: Pick<SafeFetchOptions, "allowPrivate" | "resolve"> = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const addresses = await checkedAddresses(url, options);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
    const res = await pinnedRequest(url, addresses, {
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
    });
    if (REDIRECTS.has(res.status)) {
      await res.body?.cancel();
      // As fetch's redirect: "error" does.
      throw new TypeError(`redirect refused: ${url.host} answered ${res.status}, which is not followed`);
    }
    return res;
  };
}

/** fetch for vendor SDKs aimed at a team's base URL. */
export const guardedFetch: typeof fetch = createGuardedFetch();

/** The provider's events, after checking the team's base URL (a refusal is a provider_bad_request). */
export async function* checkedBaseUrl<E = GenerateEvent>(
  baseUrl: string,
  provider: ProviderName,
  generate: () => AsyncIterable<E>,
): AsyncGenerator<E> {
  try {
    await checkedAddresses(new URL(baseUrl));
  } catch (err) {
    throw new ProviderError("provider_bad_request", provider, null, `base URL refused: ${(err as Error).message}`);
  }
  yield* generate();
}
