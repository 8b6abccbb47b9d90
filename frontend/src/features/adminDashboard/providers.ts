// A provider's name as the bot settings show it; a value the app does not know (a provider
// removed since the message was stored) shows as stored.
import type { IntlShape } from "react-intl";
import { providerLabelId } from "../../components/labels";
import { MODEL_PROVIDERS } from "../../data/bots/types";

export function providerName(intl: IntlShape, provider: string): string {
  return (MODEL_PROVIDERS as readonly string[]).includes(provider) ? intl.formatMessage({ id: providerLabelId(provider) }) : provider;
}
