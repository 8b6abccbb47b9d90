import { FormattedMessage } from "react-intl";
import { FeatureGrid, Hero } from "./Hero";

const PROVIDERS = [
  { key: "openai", name: "OpenAI" },
  { key: "anthropic", name: "Anthropic" },
  { key: "google", name: "Google Gemini" },
  { key: "mistral", name: "Mistral" },
  { key: "groq", name: "Groq" },
  { key: "compatible", name: "Ollama · llama.cpp · vLLM" },
  { key: "extractive", name: "Parley" },
] as const;

export default function ModelsPage() {
  return (
    <>
      <Hero title={<FormattedMessage id="page.models.title" />} lead={<FormattedMessage id="models.lead" />} />
      <section className="container page-section">
        <FeatureGrid items={PROVIDERS.map((p) => ({ key: p.key, title: p.name, text: <FormattedMessage id={`models.${p.key}`} /> }))} />
      </section>
    </>
  );
}
