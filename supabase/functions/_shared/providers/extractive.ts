// The embedded default responder: no model, no key. It answers with the sentences of the bot's
// own knowledge (as retrieved by match_chunks) that answer the question: every sentence of the
// retrieved passages is scored against the question (term overlap weighted by rarity, names and
// numbers weighing more, proximity of the matched terms, the passage's headings), the best one to
// three become a short paragraph citing their passages [1], [2], and the other relevant pages are
// offered as "read more". When no sentence scores above ANSWER_THRESHOLD (calibrated on the
// labelled questions of bench/answers, see its REPORT.md) it says honestly that it does not know,
// in the bot's language, and offers the bot's suggested questions. A question written in another
// language than the knowledge is told so in its own language. Streams in small pieces like a model.
import type { GenerateEvent } from "./types.ts";

export type BotLanguage = "en" | "de" | "es" | "fr" | "it" | "jp" | "cn" | "el" | "pl" | "nl";
const LANGUAGES: BotLanguage[] = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"];

export interface Passage {
  chunk_id: string;
  document_id: string;
  content: string;
  heading_path: string | null;
  document_title: string | null;
  document_url: string | null;
  score: number;
}

interface Phrases {
  lead: string;
  none: string;
  suggest: string;
  more: string;
  /** {lang}: the knowledge's language, by its own name. */
  otherLanguage: string;
  image: string;
}

const phrases: Record<BotLanguage, Phrases> = {
  en: {
    lead: "Here is what I found in the knowledge base:",
    none: "I couldn't find anything about that in my knowledge base. Could you rephrase your question?",
    suggest: "You could ask, for example:",
    more: "Read more:",
    otherLanguage:
      "My knowledge is written in another language ({lang}), so I couldn't find an answer to a question in English. Could you ask in {lang}?",
    image: "I can't look at images: that needs a vision model, and this bot answers from its knowledge base only.",
  },
  de: {
    lead: "Das habe ich in der Wissensdatenbank gefunden:",
    none: "Dazu habe ich in meiner Wissensdatenbank leider nichts gefunden. Können Sie Ihre Frage anders formulieren?",
    suggest: "Sie könnten zum Beispiel fragen:",
    more: "Mehr dazu:",
    otherLanguage:
      "Mein Wissen ist in einer anderen Sprache verfasst ({lang}), daher habe ich auf eine Frage auf Deutsch keine Antwort gefunden. Könnten Sie auf {lang} fragen?",
    image:
      "Bilder kann ich nicht ansehen: Dafür ist ein Modell mit Bildverständnis nötig, und dieser Bot antwortet nur aus seiner Wissensdatenbank.",
  },
  es: {
    lead: "Esto es lo que encontré en la base de conocimientos:",
    none: "No encontré nada sobre eso en mi base de conocimientos. ¿Podrías reformular tu pregunta?",
    suggest: "Podrías preguntar, por ejemplo:",
    more: "Más información:",
    otherLanguage:
      "Mis conocimientos están escritos en otro idioma ({lang}), por eso no encontré respuesta a una pregunta en español. ¿Podrías preguntar en {lang}?",
    image:
      "No puedo ver imágenes: para eso hace falta un modelo con visión, y este bot responde solo con su base de conocimientos.",
  },
  fr: {
    lead: "Voici ce que j'ai trouvé dans la base de connaissances :",
    none: "Je n'ai rien trouvé à ce sujet dans ma base de connaissances. Pourriez-vous reformuler votre question ?",
    suggest: "Vous pourriez demander par exemple :",
    more: "En savoir plus :",
    otherLanguage:
      "Mes connaissances sont rédigées dans une autre langue ({lang}), je n'ai donc pas trouvé de réponse à une question en français. Pourriez-vous la poser en {lang} ?",
    image:
      "Je ne peux pas regarder les images : il faut pour cela un modèle de vision, et ce bot répond uniquement à partir de sa base de connaissances.",
  },
  it: {
    lead: "Ecco cosa ho trovato nella base di conoscenza:",
    none: "Non ho trovato nulla al riguardo nella mia base di conoscenza. Puoi riformulare la domanda?",
    suggest: "Potresti chiedere, per esempio:",
    more: "Per saperne di più:",
    otherLanguage:
      "Le mie conoscenze sono scritte in un'altra lingua ({lang}), quindi non ho trovato una risposta a una domanda in italiano. Puoi chiedere in {lang}?",
    image:
      "Non posso guardare le immagini: serve un modello con visione, e questo bot risponde solo dalla sua base di conoscenza.",
  },
  jp: {
    lead: "ナレッジベースで見つかった情報は次のとおりです。",
    none: "ナレッジベースに該当する情報が見つかりませんでした。質問を言い換えていただけますか？",
    suggest: "例えば、次のような質問ができます。",
    more: "詳しくはこちら：",
    otherLanguage:
      "私の知識は別の言語（{lang}）で書かれているため、日本語の質問への回答が見つかりませんでした。{lang}で質問していただけますか？",
    image: "画像を見ることはできません。画像認識モデルが必要で、このボットはナレッジベースからのみ回答します。",
  },
  cn: {
    lead: "以下是我在知识库中找到的内容：",
    none: "我在知识库中没有找到相关内容。能换个方式提问吗？",
    suggest: "您可以这样问，例如：",
    more: "了解更多：",
    otherLanguage: "我的知识是用另一种语言（{lang}）编写的，因此没有找到中文问题的答案。您能用{lang}提问吗？",
    image: "我无法查看图片：这需要视觉模型，而此机器人只根据知识库回答。",
  },
  el: {
    lead: "Να τι βρήκα στη βάση γνώσεων:",
    none: "Δεν βρήκα τίποτα σχετικό στη βάση γνώσεών μου. Μπορείτε να διατυπώσετε διαφορετικά την ερώτησή σας;",
    suggest: "Θα μπορούσατε να ρωτήσετε, για παράδειγμα:",
    more: "Διαβάστε περισσότερα:",
    otherLanguage:
      "Οι γνώσεις μου είναι γραμμένες σε άλλη γλώσσα ({lang}), γι' αυτό δεν βρήκα απάντηση σε ερώτηση στα ελληνικά. Μπορείτε να ρωτήσετε στα {lang};",
    image: "Δεν μπορώ να δω εικόνες: χρειάζεται μοντέλο όρασης, και αυτό το bot απαντά μόνο από τη βάση γνώσεών του.",
  },
  pl: {
    lead: "Oto, co znalazłem w bazie wiedzy:",
    none: "Nie znalazłem nic na ten temat w mojej bazie wiedzy. Czy możesz sformułować pytanie inaczej?",
    suggest: "Możesz zapytać na przykład:",
    more: "Więcej informacji:",
    otherLanguage:
      "Moja wiedza jest zapisana w innym języku ({lang}), dlatego nie znalazłem odpowiedzi na pytanie po polsku. Czy możesz zapytać w języku: {lang}?",
    image:
      "Nie mogę oglądać obrazów: potrzebny jest do tego model wizyjny, a ten bot odpowiada tylko na podstawie swojej bazy wiedzy.",
  },
  nl: {
    lead: "Dit heb ik gevonden in de kennisbank:",
    none: "Ik heb hierover niets gevonden in mijn kennisbank. Kun je je vraag anders formuleren?",
    suggest: "Je kunt bijvoorbeeld vragen:",
    more: "Lees meer:",
    otherLanguage:
      "Mijn kennis is in een andere taal geschreven ({lang}), daarom vond ik geen antwoord op een vraag in het Nederlands. Kun je het in het {lang} vragen?",
    image:
      "Ik kan geen afbeeldingen bekijken: daarvoor is een model met beeldherkenning nodig, en deze bot antwoordt alleen uit zijn kennisbank.",
  },
};

/** Each language by its own name. */
const nativeNames: Record<BotLanguage, string> = {
  en: "English",
  de: "Deutsch",
  es: "español",
  fr: "français",
  it: "italiano",
  jp: "日本語",
  cn: "中文",
  el: "Ελληνικά",
  pl: "polski",
  nl: "Nederlands",
};

function asLanguage(language: string): BotLanguage {
  return (LANGUAGES as string[]).includes(language) ? (language as BotLanguage) : "en";
}

export function extractivePhrases(language: string): Phrases {
  return phrases[asLanguage(language)];
}

/**
 * The lowest best-sentence score that still counts as an answer. Calibrated, not guessed:
 * `node bench/answers/run.mjs` scores the labelled answerable and unanswerable questions of
 * bench/answers/questions.json and picks the threshold with the best balanced accuracy on its
 * calibration half (bench/answers/REPORT.md).
 */
export const ANSWER_THRESHOLD = 0.475;
/**
 * A term's rarity is counted among the retrieved sentences only, and a good retrieval makes the
 * question's topic words common there ("app" and "offline" in every passage about offline apps)
 * while an incidental word stays rare. Rarity therefore weighs dampened (its 0.7th power): a
 * word missing from every passage still weighs most, but the weights depend less on which
 * passages retrieval chose (bench/answers/REPORT.md, "retrieval rerank").
 */
const RARITY_DAMPING = 0.7;
/** At most this many sentences in the answer, and this many characters. */
const MAX_SENTENCES = 3;
const MAX_ANSWER_CHARS = 600;
/** At most this many other pages offered as "read more". */
const MAX_READ_MORE = 3;

// --- words ------------------------------------------------------------------------------------

/**
 * Frequent function words of the Latin- and Greek-script languages: not terms, and language
 * evidence. English also lists "use", a filler of questions ("Can I use the app offline?") that
 * answers rarely repeat.
 */
const stopwords: Partial<Record<BotLanguage, string>> = {
  en: "the a an and or of to in on at for with from by is are was were be been it its this that these those i you we they he she my your our their what which who whom how why when where do does did can could should would will shall may might must have has had not no yes there here if then than so as about into over also just any all some me us them use",
  de: "der die das den dem des ein eine einen einem einer und oder zu im in am an auf für mit von ist sind war waren wie was wer wo wann warum ich sie wir er es kann können soll sollte wird werden nicht kein keine ja dass auch nur bei aus nach über mein meine ihr ihre sich",
  es: "el la los las un una unos unas y o de del al en con por para es son era fue ser como qué que quién dónde cuándo cuál por qué yo tú usted nosotros se no sí puedo puede pueden mi mis su sus este esta esto hay también",
  fr: "le la les un une des et ou de du au aux en dans sur pour avec par est sont était être comment quoi que qui où quand pourquoi quel quelle je tu vous nous il elle ne pas oui peut peux puis mon ma mes votre vos ce cette ces il y a aussi",
  it: "il lo la i gli le un una uno e o di del della dei in con su per da è sono era essere come cosa che chi dove quando perché quale io tu lei noi non sì posso può mio mia suo sua questo questa anche ci",
  nl: "de het een en of van in op aan voor met door is zijn was waren hoe wat wie waar wanneer waarom welke ik je jij u wij we niet geen ja kan kunnen mijn uw dit dat deze er ook",
  pl: "i w na z do o od po się jest są był była jak co kto gdzie kiedy dlaczego który która ja ty pan pani my nie tak czy mogę może mój moja to ten ta te jeśli także",
  el: "ο η το οι τα ένα μια και ή του της των στο στη στην σε με για από είναι ήταν πώς τι ποιος πού πότε γιατί εγώ εσύ εσείς εμείς δεν ναι μπορώ μπορεί μου σας αυτό αυτή",
};
const stopSets = Object.fromEntries(
  Object.entries(stopwords).map(([lang, words]) => [lang, new Set(words!.split(" "))]),
) as Partial<Record<BotLanguage, Set<string>>>;
const allStopwords = new Set(Object.values(stopSets).flatMap((s) => [...s!]));

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const GREEK = /\p{Script=Greek}/u;

/** A light, language-neutral stem: common endings off, at most seven letters. */
function stem(word: string): string {
  // A plain plural loses its "s" down to three letters ("apps" is "app"), not after s, u or i ("bus", "this").
  const w = word
    .replace(/(ations?|ings?|edly|ed|es|ly)$/u, (m) => (word.length - m.length >= 4 ? "" : m))
    .replace(/(?<=[^siu'])s$/u, (m, offset: number) => (offset >= 3 ? "" : m));
  return w.length > 7 ? w.slice(0, 7) : w;
}

interface Term {
  stem: string;
  /** a number, a version, or a name (capitalised inside the sentence, or code-like) */
  special: boolean;
}

/** What a word gives, whatever its place in the text (`wordTerms`). */
interface WordTerms {
  stems: string[];
  /** a number, a version or a code-like name */
  special: boolean;
  /** capitalised but not all capitals: a name when it is not the text's first word */
  capitalised: boolean;
}

const NO_TERMS: WordTerms = { stems: [], special: false, capitalised: false };
/** Words repeat across passages and answers: each is analysed once per worker (bounded). */
const wordCache = new Map<string, WordTerms>();
const WORD_CACHE_SIZE = 50_000;

function wordTerms(word: string): WordTerms {
  let terms = wordCache.get(word);
  if (terms) return terms;
  terms = analyseWord(word);
  if (wordCache.size >= WORD_CACHE_SIZE) wordCache.clear();
  wordCache.set(word, terms);
  return terms;
}

function analyseWord(word: string): WordTerms {
  if (CJK.test(word)) {
    const chars = [...word];
    const stems = chars.length === 1 ? [chars[0]!] : [];
    for (let j = 0; j + 1 < chars.length; j++) stems.push(chars[j]! + chars[j + 1]!);
    return { stems, special: false, capitalised: false };
  }
  const lower = word.toLowerCase();
  const hasDigit = /\p{N}/u.test(lower);
  if (!hasDigit && (lower.length < 2 || allStopwords.has(lower))) return NO_TERMS;
  const special =
    hasDigit ||
    /[_.]/.test(lower) ||
    /\p{Ll}\p{Lu}/u.test(word) ||
    (word.length > 1 && word === word.toUpperCase() && /\p{L}/u.test(word));
  const capitalised = /^\p{Lu}/u.test(word) && word !== word.toUpperCase();
  if (hasDigit) return { stems: [lower], special, capitalised };
  // Code-like words ("limits.parts", "partsLimit", "max-age") match by their parts too.
  const parts = word
    .split(/[-'._]+|(?<=\p{Ll})(?=\p{Lu})/u)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 2 && !allStopwords.has(w));
  const stems = parts.length > 1 ? [stem(lower.replace(/[-'._]+/g, ""))] : [];
  for (const part of parts) stems.push(stem(part));
  return { stems, special, capitalised };
}

/** The terms of a text, in order: stems of words (stopwords left out); CJK runs as character bigrams. */
export function termsOf(text: string): Term[] {
  const out: Term[] = [];
  const words = text.normalize("NFKC").match(/[\p{L}\p{N}][\p{L}\p{N}_.\-']*/gu) ?? [];
  words.forEach((raw, i) => {
    const w = wordTerms(raw.replace(/[.\-']+$/u, ""));
    const special = w.special || (i > 0 && w.capitalised);
    for (const stem of w.stems) out.push({ stem, special });
  });
  return out;
}

/** The language of a short text among the bot languages, or null when there is too little evidence. */
export function detectLanguage(text: string): BotLanguage | null {
  if (KANA.test(text)) return "jp";
  if (CJK.test(text)) return "cn";
  if (GREEK.test(text)) return "el";
  const words =
    text
      .toLowerCase()
      .normalize("NFKC")
      .match(/\p{L}+/gu) ?? [];
  let best: BotLanguage | null = null;
  let bestHits = 0;
  let second = 0;
  for (const lang of LANGUAGES) {
    const set = stopSets[lang];
    if (!set) continue;
    const hits = words.filter((w) => set.has(w)).length;
    if (hits > bestHits) [second, bestHits, best] = [bestHits, hits, lang];
    else if (hits > second) second = hits;
  }
  return best && bestHits >= 2 && bestHits > second ? best : null;
}

// --- sentences --------------------------------------------------------------------------------

/**
 * The blocks of a passage (paragraphs, list items, headings), each as its sentences. Hard-wrapped
 * lines of a paragraph are joined; code blocks, tables and rules are left out.
 */
export function blocks(text: string): string[][] {
  const out: string[] = [];
  let current: string[] = [];
  // A list item that is only a label ("* `peek(key)`") owns the paragraph after it.
  let label = false;
  const flush = () => {
    if (!current.length) return;
    const text = current.join(" ");
    if (label && !listStart && out.length) out[out.length - 1] += ` ${text}`;
    else out.push(text);
    label = listStart && text.length < 60 && !/[.!?。！？]$/.test(text);
    current = [];
  };
  let listStart = false;
  let code = false;
  for (const raw of text.split(/\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      code = !code;
      flush();
      continue;
    }
    if (code || !line || /^([|:\-=*_ ]+|\|.*\|)$/.test(line)) {
      flush();
      continue;
    }
    const heading = /^#{1,6}\s/.test(line);
    const item = /^([-*+]\s|\d+[.)]\s|>)/.test(line);
    if (heading || item) flush();
    if (!current.length) listStart = item;
    if (heading) label = false;
    current.push(line.replace(/^(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, "").trim());
    if (heading) flush();
  }
  flush();
  return out
    .map((b) =>
      b
        .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(`*_])|(?<=[。！？])/u)
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .filter((b) => b.length);
}

/** The sentences of a passage, in order (see `blocks`). */
export function sentences(text: string): string[] {
  return blocks(text).flat();
}

export interface ScoredSentence {
  text: string;
  /** index of the passage among the retrieved ones, of the block in it, and of the sentence in it */
  passage: number;
  block: number;
  index: number;
  /** the sentence alone, 0..1 */
  score: number;
  /** the sentence's block (paragraph or list item) as a whole, 0..1 */
  blockScore: number;
}

/** Term-weight coverage of a bag of terms, times closeness of the matched terms, times a length factor. */
function coverage(
  terms: string[],
  weight: Map<string, number>,
  total: number,
  heading: Set<string>,
  maxTerms: number,
): number {
  let matched = 0;
  const positions: number[] = [];
  const seen = new Set<string>();
  terms.forEach((t, i) => {
    if (!weight.has(t)) return;
    positions.push(i);
    if (!seen.has(t)) {
      seen.add(t);
      matched += weight.get(t)!;
    }
  });
  if (!seen.size) return 0;
  // The passage's headings count at half weight for the terms the text itself lacks.
  for (const t of heading) if (weight.has(t) && !seen.has(t)) matched += weight.get(t)! / 2;
  let proximity = 1;
  if (seen.size >= 2) proximity = Math.min(1, (seen.size + 2) / (positions[positions.length - 1]! - positions[0]! + 1));
  // A very long text (a run-on list) answers less precisely.
  const length = terms.length > maxTerms ? Math.sqrt(maxTerms / terms.length) : 1;
  return Math.min(1, (matched / total) * (0.8 + 0.2 * proximity) * length);
}

/**
 * Every sentence of the passages scored against the question, 0..1: the share of the question's
 * term weight the sentence (or, at half weight, its passage's headings) covers, times a factor for
 * how close together the matched terms stand. A term's weight is its rarity among the candidate
 * sentences (inverse document frequency, dampened: RARITY_DAMPING); names and numbers count 1.5
 * times. Retrieval's own `score` is not used (its scale is match_chunks' business), only the text
 * of the passages it chose. Each sentence's block
 * (its paragraph or list item) is scored the same way: a definition and its "Default: 10" belong
 * together.
 */
export function scoreSentences(question: string, passages: Passage[]): ScoredSentence[] {
  const qTerms = new Map<string, number>();
  for (const t of termsOf(question)) qTerms.set(t.stem, Math.max(qTerms.get(t.stem) ?? 0, t.special ? 1.5 : 1));
  const all: { text: string; passage: number; block: number; index: number; terms: string[] }[] = [];
  passages.forEach((p, pi) => {
    let index = 0;
    blocks(p.content).forEach((sentences, bi) =>
      sentences.forEach((text) =>
        all.push({ text, passage: pi, block: bi, index: index++, terms: termsOf(text).map((t) => t.stem) }),
      ),
    );
  });
  if (!qTerms.size || !all.length) return all.map(({ terms: _, ...s }) => ({ ...s, score: 0, blockScore: 0 }));
  const df = new Map<string, number>();
  for (const s of all) for (const t of new Set(s.terms)) if (qTerms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const weight = new Map<string, number>();
  let total = 0;
  for (const [t, boost] of qTerms) {
    const w = boost * Math.log(1 + (all.length + 1) / ((df.get(t) ?? 0) + 0.5)) ** RARITY_DAMPING;
    weight.set(t, w);
    total += w;
  }
  const headings = passages.map(
    (p) => new Set(termsOf(`${p.document_title ?? ""} ${p.heading_path ?? ""}`).map((t) => t.stem)),
  );
  const blockTerms = new Map<string, string[]>();
  for (const s of all)
    blockTerms.set(`${s.passage}:${s.block}`, [...(blockTerms.get(`${s.passage}:${s.block}`) ?? []), ...s.terms]);
  const blockScores = new Map(
    [...blockTerms].map(([key, terms]) => [
      key,
      coverage(terms, weight, total, headings[Number(key.split(":")[0])]!, 90),
    ]),
  );
  return all.map(({ terms, ...s }) => ({
    ...s,
    score: coverage(terms, weight, total, headings[s.passage]!, 45),
    blockScore: blockScores.get(`${s.passage}:${s.block}`)!,
  }));
}

/** How well a sentence answers, in its block's context. */
const strength = (s: ScoredSentence) => 0.5 * s.score + 0.5 * s.blockScore;

// --- the answer -------------------------------------------------------------------------------

export interface ExtractiveResult {
  kind: "answer" | "unknown" | "other_language";
  text: string;
  /** The passages cited [1..n], then the "read more" ones [n+1..]; best first. */
  sources: Passage[];
  /** The best sentence's strength (for calibration). */
  best: number;
}

export interface ExtractiveOptions {
  /** Offered when the answer is not in the knowledge. */
  suggestedQuestions?: string[];
  /** Overrides ANSWER_THRESHOLD (calibration only). */
  threshold?: number;
}

/**
 * The sentences of the answer: the best one with the rest of its block when the block is short
 * (else with the sentence after it), then sentences of other blocks that score nearly as well;
 * one to three sentences, in reading order.
 */
function pick(scored: ScoredSentence[], threshold: number): ScoredSentence[] {
  const ranked = [...scored].sort((a, b) => strength(b) - strength(a) || a.passage - b.passage || a.index - b.index);
  const best = ranked[0]!;
  const block = scored.filter((s) => s.passage === best.passage && s.block === best.block);
  const blockChars = block.reduce((n, s) => n + s.text.length + 1, 0);
  let picked: ScoredSentence[];
  if (block.length <= MAX_SENTENCES && blockChars <= MAX_ANSWER_CHARS) picked = block;
  else {
    picked = [best];
    const next = block.find((s) => s.index === best.index + 1);
    if (next && best.text.length + next.text.length <= MAX_ANSWER_CHARS) picked.push(next);
  }
  let size = picked.reduce((n, s) => n + s.text.length + 1, 0);
  for (const s of ranked.slice(1)) {
    if (picked.length >= MAX_SENTENCES) break;
    if (strength(s) < Math.max(threshold, strength(best) * 0.85) || picked.includes(s)) continue;
    if (picked.some((p) => p.text === s.text) || size + s.text.length > MAX_ANSWER_CHARS) continue;
    picked.push(s);
    size += s.text.length + 1;
  }
  return picked.sort((a, b) => a.passage - b.passage || a.index - b.index);
}

function sourceTitle(p: Passage): string {
  const headings = (p.heading_path ?? "").split(/\s*>\s*/).filter(Boolean);
  return (headings.at(-1) ?? p.document_title ?? p.document_url ?? "").trim();
}

function unknown(language: string, suggested: string[] | undefined, best: number): ExtractiveResult {
  const p = extractivePhrases(language);
  const offer = (suggested ?? [])
    .map((q) => q.trim())
    .filter(Boolean)
    .slice(0, 3);
  const text = offer.length ? `${p.none}\n\n${p.suggest}\n${offer.map((q) => `- ${q}`).join("\n")}` : p.none;
  return { kind: "unknown", text, sources: [], best };
}

/** The whole answer: text, and the passages it cites [n] in order. */
export function extractiveReply(
  question: string,
  passages: Passage[],
  language: string,
  options: ExtractiveOptions = {},
): ExtractiveResult {
  const threshold = options.threshold ?? ANSWER_THRESHOLD;
  const scored = scoreSentences(question, passages);
  const best = scored.reduce((m, s) => Math.max(m, strength(s)), 0);
  if (best < threshold || !scored.length) {
    const asked = detectLanguage(question);
    const knowledge = passages.length
      ? detectLanguage(
          passages
            .map((p) => p.content)
            .join(" ")
            .slice(0, 3000),
        )
      : asLanguage(language);
    if (asked && knowledge && asked !== knowledge) {
      const text = phrases[asked].otherLanguage.replaceAll("{lang}", nativeNames[knowledge]);
      return { kind: "other_language", text, sources: [], best };
    }
    return unknown(language, options.suggestedQuestions, best);
  }
  const picked = pick(scored, threshold);
  const cited: number[] = [];
  for (const s of picked) if (!cited.includes(s.passage)) cited.push(s.passage);
  const paragraph = picked
    .map((s, i) => {
      const last = picked[i + 1]?.passage !== s.passage;
      return last ? `${s.text} [${cited.indexOf(s.passage) + 1}]` : s.text;
    })
    .join(" ");
  // Other pages (not the cited documents) whose sentences matched the question at all.
  const passageScore = new Map<number, number>();
  for (const s of scored)
    if (s.score > 0) passageScore.set(s.passage, Math.max(passageScore.get(s.passage) ?? 0, strength(s)));
  const documents = new Set(cited.map((i) => passages[i]!.document_id));
  const more: number[] = [];
  for (const [i] of [...passageScore].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    if (more.length >= MAX_READ_MORE) break;
    if (documents.has(passages[i]!.document_id)) continue;
    documents.add(passages[i]!.document_id);
    more.push(i);
  }
  const p = extractivePhrases(language);
  const moreLine = more.length
    ? `\n\n${p.more} ${more.map((i, k) => `${sourceTitle(passages[i]!) || "…"} [${cited.length + k + 1}]`).join(" · ")}`
    : "";
  return {
    kind: "answer",
    text: `${p.lead}\n\n${paragraph}${moreLine}`,
    sources: [...cited, ...more].map((i) => passages[i]!),
    best,
  };
}

/** Said instead of looking at the visitor's images when the bot has no vision model. */
export function imagesNeedVision(language: string): string {
  return extractivePhrases(language).image;
}

/** Splits text into small pieces (a few words, or a few characters of CJK) so the answer streams. */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/gu)?.flatMap((w) => (w.length > 12 ? (w.match(/.{1,6}/gsu) ?? [w]) : [w])) ?? [];
}

/** Streams a finished text as a model would: a few words per token event. */
/**
 * Streams a ready answer as a model would: a few words per token event, paced by `paceMs`
 * between events. Without the pause every frame leaves in one network write and the visitor
 * sees the whole answer at once; with it the answer visibly grows (about 0.2 s for a
 * three-sentence answer). The first words go out at once.
 */
export async function* streamText(text: string, paceMs = 8): AsyncGenerator<GenerateEvent> {
  let n = 0;
  let buf = "";
  let sent = 0;
  for (const piece of pieces(text)) {
    buf += piece;
    if (++n % 3 === 0) {
      if (sent++ > 0 && paceMs > 0) await new Promise((r) => setTimeout(r, paceMs));
      yield { type: "token", text: buf };
      buf = "";
    }
  }
  if (buf) yield { type: "token", text: buf };
  const words = text.match(/\S+/gu)?.length ?? 0;
  yield { type: "done", usage: { prompt_tokens: 0, completion_tokens: words } };
}
