import { EmbedScreen } from "./EmbedScreen";

export default function EmbedCenterPage() {
  return <EmbedScreen variant="embed-center" />;
}
