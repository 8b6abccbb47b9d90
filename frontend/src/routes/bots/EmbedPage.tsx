import { EmbedScreen } from "./EmbedScreen";

export default function EmbedPage() {
  return <EmbedScreen variant="embed" />;
}
