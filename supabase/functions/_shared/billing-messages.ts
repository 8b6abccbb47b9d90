// What a visitor (or a channel's user) reads when the bot's team has used its monthly message
// quota: the bot is "not available right now", in the bot's language. No mention of plans or
// limits: those are the owners' business (they get an e-mail, see functions/billing).
const NOT_AVAILABLE: Record<string, string> = {
  en: "Sorry, this assistant is not available right now. Please try again later.",
  de: "Entschuldigung, dieser Assistent ist gerade nicht verfügbar. Bitte versuchen Sie es später noch einmal.",
  es: "Lo sentimos, este asistente no está disponible en este momento. Inténtalo de nuevo más tarde.",
  fr: "Désolé, cet assistant n'est pas disponible pour le moment. Veuillez réessayer plus tard.",
  it: "Spiacenti, questo assistente non è disponibile al momento. Riprova più tardi.",
  jp: "申し訳ありません。このアシスタントは現在ご利用いただけません。しばらくしてからもう一度お試しください。",
  cn: "抱歉，此助手目前不可用。请稍后再试。",
  el: "Λυπούμαστε, αυτός ο βοηθός δεν είναι διαθέσιμος αυτή τη στιγμή. Δοκιμάστε ξανά αργότερα.",
  pl: "Przepraszamy, ten asystent jest teraz niedostępny. Spróbuj ponownie później.",
  nl: "Sorry, deze assistent is op dit moment niet beschikbaar. Probeer het later opnieuw.",
};

export function botUnavailableMessage(language: string): string {
  return NOT_AVAILABLE[language] ?? NOT_AVAILABLE.en!;
}
