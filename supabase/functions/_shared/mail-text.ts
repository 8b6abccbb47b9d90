// The words of Parley's own e-mails (task reports, a disabled webhook endpoint) in the ten
// interface languages, and sending one mail in each recipient's language
// (profiles.preferred_language, returned with the addresses by the SQL functions that list them).
import { type Mail, type MailResult, sendMail } from "./mail.ts";

export const MAIL_LANGUAGES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export type MailLanguage = typeof MAIL_LANGUAGES[number];

export interface MailText {
  digestSubject: (task: string) => string;
  conversations: (chats: number, questions: number, answers: number) => string;
  feedback: (up: number, down: number) => string;
  topQuestions: string;
  unanswered: string;
  negativeFeedback: string;
  noComment: string;
  on: string;
  leads: (count: number, shown: number) => string;
  testSubject: (task: string) => string;
  testStatus: { succeeded: string; failed: string; cancelled: string };
  testCounts: (total: number, passed: number, failed: number) => string;
  regressions: (count: number, fixed: number) => string;
  endpointDisabledSubject: string;
  endpointDisabled: (url: string, last: string) => string;
  endpointDisabledAction: string;
}

const TEXT: Record<MailLanguage, MailText> = {
  en: {
    digestSubject: (t) => `Parley digest: ${t}`,
    conversations: (c, q, a) => `Conversations: ${c}, questions: ${q}, answers: ${a}`,
    feedback: (u, d) => `Feedback: ${u} up, ${d} down`,
    topQuestions: "Top questions:",
    unanswered: "Questions without an answer from your data:",
    negativeFeedback: "Negative feedback:",
    noComment: "(no comment)",
    on: "on",
    leads: (n, s) => `Leads: ${n}${n > s ? ` (the latest ${s})` : ""}`,
    testSubject: (t) => `Parley tests: ${t}`,
    testStatus: { succeeded: "finished", failed: "failed", cancelled: "cancelled" },
    testCounts: (t, p, f) => `Cases: ${t}, passed: ${p}, failed: ${f}`,
    regressions: (n, f) => `Regressions (passed in the previous run, fail now): ${n}; fixed: ${f}`,
    endpointDisabledSubject: "A Parley webhook endpoint was disabled",
    endpointDisabled: (u, l) => `Parley could not deliver to ${u} for about a day (last: ${l}) and disabled the endpoint.`,
    endpointDisabledAction: "Check the address, enable it again and redeliver what it missed:",
  },
  de: {
    digestSubject: (t) => `Parley-Zusammenfassung: ${t}`,
    conversations: (c, q, a) => `Gespräche: ${c}, Fragen: ${q}, Antworten: ${a}`,
    feedback: (u, d) => `Feedback: ${u} positiv, ${d} negativ`,
    topQuestions: "Häufigste Fragen:",
    unanswered: "Fragen ohne Antwort aus Ihren Daten:",
    negativeFeedback: "Negatives Feedback:",
    noComment: "(kein Kommentar)",
    on: "zu",
    leads: (n, s) => `Leads: ${n}${n > s ? ` (die neuesten ${s})` : ""}`,
    testSubject: (t) => `Parley-Tests: ${t}`,
    testStatus: { succeeded: "abgeschlossen", failed: "fehlgeschlagen", cancelled: "abgebrochen" },
    testCounts: (t, p, f) => `Fälle: ${t}, bestanden: ${p}, nicht bestanden: ${f}`,
    regressions: (n, f) => `Regressionen (im vorigen Lauf bestanden, jetzt nicht): ${n}; behoben: ${f}`,
    endpointDisabledSubject: "Ein Parley-Webhook-Endpunkt wurde deaktiviert",
    endpointDisabled: (u, l) => `Parley konnte etwa einen Tag lang nicht an ${u} zustellen (zuletzt: ${l}) und hat den Endpunkt deaktiviert.`,
    endpointDisabledAction: "Prüfen Sie die Adresse, aktivieren Sie ihn wieder und stellen Sie Verpasstes erneut zu:",
  },
  es: {
    digestSubject: (t) => `Resumen de Parley: ${t}`,
    conversations: (c, q, a) => `Conversaciones: ${c}, preguntas: ${q}, respuestas: ${a}`,
    feedback: (u, d) => `Valoraciones: ${u} positivas, ${d} negativas`,
    topQuestions: "Preguntas más frecuentes:",
    unanswered: "Preguntas sin respuesta en tus datos:",
    negativeFeedback: "Valoraciones negativas:",
    noComment: "(sin comentario)",
    on: "sobre",
    leads: (n, s) => `Contactos: ${n}${n > s ? ` (los ${s} más recientes)` : ""}`,
    testSubject: (t) => `Pruebas de Parley: ${t}`,
    testStatus: { succeeded: "terminada", failed: "fallida", cancelled: "cancelada" },
    testCounts: (t, p, f) => `Casos: ${t}, superados: ${p}, fallidos: ${f}`,
    regressions: (n, f) => `Regresiones (superados en la ejecución anterior, fallan ahora): ${n}; corregidos: ${f}`,
    endpointDisabledSubject: "Se ha desactivado un endpoint de webhook de Parley",
    endpointDisabled: (u, l) => `Parley no pudo entregar a ${u} durante casi un día (último: ${l}) y desactivó el endpoint.`,
    endpointDisabledAction: "Revisa la dirección, actívalo de nuevo y reenvía lo que no recibió:",
  },
  fr: {
    digestSubject: (t) => `Synthèse Parley : ${t}`,
    conversations: (c, q, a) => `Conversations : ${c}, questions : ${q}, réponses : ${a}`,
    feedback: (u, d) => `Avis : ${u} positifs, ${d} négatifs`,
    topQuestions: "Questions les plus posées :",
    unanswered: "Questions sans réponse dans vos données :",
    negativeFeedback: "Avis négatifs :",
    noComment: "(sans commentaire)",
    on: "sur",
    leads: (n, s) => `Contacts : ${n}${n > s ? ` (les ${s} plus récents)` : ""}`,
    testSubject: (t) => `Tests Parley : ${t}`,
    testStatus: { succeeded: "terminée", failed: "en échec", cancelled: "annulée" },
    testCounts: (t, p, f) => `Cas : ${t}, réussis : ${p}, échoués : ${f}`,
    regressions: (n, f) => `Régressions (réussis à l’exécution précédente, échoués maintenant) : ${n} ; corrigés : ${f}`,
    endpointDisabledSubject: "Un endpoint de webhook Parley a été désactivé",
    endpointDisabled: (u, l) => `Parley n’a pas pu livrer à ${u} pendant environ une journée (dernière erreur : ${l}) et a désactivé l’endpoint.`,
    endpointDisabledAction: "Vérifiez l’adresse, réactivez-le et relivrez ce qu’il a manqué :",
  },
  it: {
    digestSubject: (t) => `Riepilogo Parley: ${t}`,
    conversations: (c, q, a) => `Conversazioni: ${c}, domande: ${q}, risposte: ${a}`,
    feedback: (u, d) => `Feedback: ${u} positivi, ${d} negativi`,
    topQuestions: "Domande più frequenti:",
    unanswered: "Domande senza risposta nei vostri dati:",
    negativeFeedback: "Feedback negativi:",
    noComment: "(nessun commento)",
    on: "su",
    leads: (n, s) => `Contatti: ${n}${n > s ? ` (gli ultimi ${s})` : ""}`,
    testSubject: (t) => `Test Parley: ${t}`,
    testStatus: { succeeded: "completata", failed: "non riuscita", cancelled: "annullata" },
    testCounts: (t, p, f) => `Casi: ${t}, superati: ${p}, falliti: ${f}`,
    regressions: (n, f) => `Regressioni (superati nell'esecuzione precedente, falliti ora): ${n}; corretti: ${f}`,
    endpointDisabledSubject: "Un endpoint webhook di Parley è stato disattivato",
    endpointDisabled: (u, l) => `Parley non è riuscito a consegnare a ${u} per circa un giorno (ultimo: ${l}) e ha disattivato l'endpoint.`,
    endpointDisabledAction: "Controllate l'indirizzo, riattivatelo e riconsegnate ciò che ha perso:",
  },
  jp: {
    digestSubject: (t) => `Parley ダイジェスト: ${t}`,
    conversations: (c, q, a) => `会話: ${c}、質問: ${q}、回答: ${a}`,
    feedback: (u, d) => `フィードバック: 良い ${u}、悪い ${d}`,
    topQuestions: "よくある質問:",
    unanswered: "データから回答できなかった質問:",
    negativeFeedback: "否定的なフィードバック:",
    noComment: "(コメントなし)",
    on: "対象",
    leads: (n, s) => `リード: ${n}${n > s ? `(最新 ${s} 件)` : ""}`,
    testSubject: (t) => `Parley テスト: ${t}`,
    testStatus: { succeeded: "完了", failed: "失敗", cancelled: "キャンセル" },
    testCounts: (t, p, f) => `ケース: ${t}、合格: ${p}、不合格: ${f}`,
    regressions: (n, f) => `リグレッション(前回合格し今回不合格): ${n}、修正: ${f}`,
    endpointDisabledSubject: "Parley の Webhook エンドポイントが無効になりました",
    endpointDisabled: (u, l) => `Parley は約 1 日間 ${u} に配信できなかったため(最後: ${l})、エンドポイントを無効にしました。`,
    endpointDisabledAction: "アドレスを確認し、再度有効にして、届かなかったイベントを再配信してください:",
  },
  cn: {
    digestSubject: (t) => `Parley 摘要:${t}`,
    conversations: (c, q, a) => `对话:${c},问题:${q},回答:${a}`,
    feedback: (u, d) => `反馈:${u} 个赞,${d} 个踩`,
    topQuestions: "热门问题:",
    unanswered: "数据中找不到答案的问题:",
    negativeFeedback: "负面反馈:",
    noComment: "(无评论)",
    on: "针对",
    leads: (n, s) => `线索:${n}${n > s ? `(最新 ${s} 条)` : ""}`,
    testSubject: (t) => `Parley 测试:${t}`,
    testStatus: { succeeded: "已完成", failed: "失败", cancelled: "已取消" },
    testCounts: (t, p, f) => `用例:${t},通过:${p},未通过:${f}`,
    regressions: (n, f) => `回归(上次通过、这次未通过):${n};已修复:${f}`,
    endpointDisabledSubject: "一个 Parley Webhook 端点已停用",
    endpointDisabled: (u, l) => `Parley 在约一天内无法投递到 ${u}(最后一次:${l}),已停用该端点。`,
    endpointDisabledAction: "请检查地址,重新启用,并重新投递错过的事件:",
  },
  el: {
    digestSubject: (t) => `Σύνοψη Parley: ${t}`,
    conversations: (c, q, a) => `Συνομιλίες: ${c}, ερωτήσεις: ${q}, απαντήσεις: ${a}`,
    feedback: (u, d) => `Αξιολογήσεις: ${u} θετικές, ${d} αρνητικές`,
    topQuestions: "Συχνότερες ερωτήσεις:",
    unanswered: "Ερωτήσεις χωρίς απάντηση από τα δεδομένα σας:",
    negativeFeedback: "Αρνητικές αξιολογήσεις:",
    noComment: "(χωρίς σχόλιο)",
    on: "για",
    leads: (n, s) => `Επαφές: ${n}${n > s ? ` (οι ${s} πιο πρόσφατες)` : ""}`,
    testSubject: (t) => `Δοκιμές Parley: ${t}`,
    testStatus: { succeeded: "ολοκληρώθηκε", failed: "απέτυχε", cancelled: "ακυρώθηκε" },
    testCounts: (t, p, f) => `Περιπτώσεις: ${t}, επιτυχείς: ${p}, αποτυχημένες: ${f}`,
    regressions: (n, f) => `Οπισθοδρομήσεις (πέρασαν στην προηγούμενη εκτέλεση, αποτυγχάνουν τώρα): ${n}· διορθώθηκαν: ${f}`,
    endpointDisabledSubject: "Ένα endpoint webhook του Parley απενεργοποιήθηκε",
    endpointDisabled: (u, l) => `Το Parley δεν μπόρεσε να παραδώσει στο ${u} για περίπου μία ημέρα (τελευταίο: ${l}) και απενεργοποίησε το endpoint.`,
    endpointDisabledAction: "Ελέγξτε τη διεύθυνση, ενεργοποιήστε το ξανά και παραδώστε ξανά ό,τι έχασε:",
  },
  pl: {
    digestSubject: (t) => `Podsumowanie Parley: ${t}`,
    conversations: (c, q, a) => `Rozmowy: ${c}, pytania: ${q}, odpowiedzi: ${a}`,
    feedback: (u, d) => `Oceny: ${u} pozytywne, ${d} negatywne`,
    topQuestions: "Najczęstsze pytania:",
    unanswered: "Pytania bez odpowiedzi w Twoich danych:",
    negativeFeedback: "Negatywne oceny:",
    noComment: "(bez komentarza)",
    on: "dotyczy",
    leads: (n, s) => `Kontakty: ${n}${n > s ? ` (najnowsze ${s})` : ""}`,
    testSubject: (t) => `Testy Parley: ${t}`,
    testStatus: { succeeded: "zakończony", failed: "nieudany", cancelled: "anulowany" },
    testCounts: (t, p, f) => `Przypadki: ${t}, zaliczone: ${p}, niezaliczone: ${f}`,
    regressions: (n, f) => `Regresje (zaliczone w poprzednim przebiegu, teraz nie): ${n}; naprawione: ${f}`,
    endpointDisabledSubject: "Endpoint webhooka Parley został wyłączony",
    endpointDisabled: (u, l) => `Parley nie mógł dostarczyć do ${u} przez około dobę (ostatnio: ${l}) i wyłączył endpoint.`,
    endpointDisabledAction: "Sprawdź adres, włącz go ponownie i dostarcz ponownie to, co go ominęło:",
  },
  nl: {
    digestSubject: (t) => `Parley-overzicht: ${t}`,
    conversations: (c, q, a) => `Gesprekken: ${c}, vragen: ${q}, antwoorden: ${a}`,
    feedback: (u, d) => `Feedback: ${u} positief, ${d} negatief`,
    topQuestions: "Meest gestelde vragen:",
    unanswered: "Vragen zonder antwoord uit je gegevens:",
    negativeFeedback: "Negatieve feedback:",
    noComment: "(geen opmerking)",
    on: "bij",
    leads: (n, s) => `Leads: ${n}${n > s ? ` (de nieuwste ${s})` : ""}`,
    testSubject: (t) => `Parley-tests: ${t}`,
    testStatus: { succeeded: "voltooid", failed: "mislukt", cancelled: "geannuleerd" },
    testCounts: (t, p, f) => `Gevallen: ${t}, geslaagd: ${p}, mislukt: ${f}`,
    regressions: (n, f) => `Regressies (geslaagd in de vorige run, nu mislukt): ${n}; opgelost: ${f}`,
    endpointDisabledSubject: "Een Parley-webhook-endpoint is uitgeschakeld",
    endpointDisabled: (u, l) => `Parley kon ongeveer een dag lang niet bezorgen bij ${u} (laatste: ${l}) en heeft het endpoint uitgeschakeld.`,
    endpointDisabledAction: "Controleer het adres, schakel het weer in en bezorg opnieuw wat het miste:",
  },
};

/** The words of `language`, English for anything else. */
export function mailText(language: string | null | undefined): MailText {
  return (MAIL_LANGUAGES as readonly string[]).includes(language ?? "") ? TEXT[language as MailLanguage] : TEXT.en;
}

/** Sends `build(text)` to each recipient in their language: one mail per language, summed up. */
export async function sendMailInLanguages(
  recipients: { email: string; language: string | null }[],
  build: (text: MailText) => Omit<Mail, "to">,
): Promise<MailResult> {
  if (recipients.length === 0) return await sendMail({ to: [], ...build(TEXT.en) });
  const byLanguage = new Map<MailText, string[]>();
  for (const r of recipients) {
    const text = mailText(r.language);
    byLanguage.set(text, [...(byLanguage.get(text) ?? []), r.email]);
  }
  let sent = 0;
  let skipped: MailResult["skipped"];
  for (const [text, to] of byLanguage) {
    const r = await sendMail({ to, ...build(text) });
    sent += r.sent;
    skipped ??= r.skipped;
  }
  return sent > 0 || !skipped ? { sent } : { sent, skipped };
}
