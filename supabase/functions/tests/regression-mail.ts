// The regression mail: what a finished test run broke, sent to those the bot's test settings
// name (public.test_regression_recipients: owners, admins, chosen members, extra addresses),
// each in their language, with a link to the run's page opened on its new failures.
import { escapeHtml, type Mail } from "../_shared/mail.ts";
import { MAIL_LANGUAGES, type MailLanguage } from "../_shared/mail-text.ts";

interface RegressionWords {
  subject: (bot: string, n: number) => string;
  intro: (bot: string, n: number) => string;
  counts: (passed: number, total: number, fixed: number) => string;
  cases: string;
  open: string;
}

const WORDS: Record<MailLanguage, RegressionWords> = {
  en: {
    subject: (b, n) => `${b}: ${n} test ${n === 1 ? "case" : "cases"} failing since the last run`,
    intro: (b, n) => `The latest test run of ${b} fails ${n} ${n === 1 ? "case that" : "cases that"} passed in the run before.`,
    counts: (p, t, f) => `Passed: ${p} of ${t}; fixed since the last run: ${f}.`,
    cases: "New failures:",
    open: "See what changed:",
  },
  de: {
    subject: (b, n) => `${b}: ${n} ${n === 1 ? "Testfall schlägt" : "Testfälle schlagen"} seit dem letzten Lauf fehl`,
    intro: (b, n) => `Der neueste Testlauf von ${b} lässt ${n} ${n === 1 ? "Fall durchfallen, der" : "Fälle durchfallen, die"} im vorigen Lauf bestanden.`,
    counts: (p, t, f) => `Bestanden: ${p} von ${t}; seit dem letzten Lauf behoben: ${f}.`,
    cases: "Neu fehlgeschlagen:",
    open: "Sehen Sie, was sich geändert hat:",
  },
  es: {
    subject: (b, n) => `${b}: ${n} ${n === 1 ? "caso de prueba falla" : "casos de prueba fallan"} desde la última ejecución`,
    intro: (b, n) => `La última ejecución de pruebas de ${b} falla ${n} ${n === 1 ? "caso que pasó" : "casos que pasaron"} en la ejecución anterior.`,
    counts: (p, t, f) => `Superados: ${p} de ${t}; corregidos desde la última ejecución: ${f}.`,
    cases: "Nuevos fallos:",
    open: "Vea qué ha cambiado:",
  },
  fr: {
    subject: (b, n) => `${b} : ${n} ${n === 1 ? "cas de test échoue" : "cas de test échouent"} depuis la dernière exécution`,
    intro: (b, n) => `La dernière exécution des tests de ${b} échoue sur ${n} ${n === 1 ? "cas qui réussissait" : "cas qui réussissaient"} lors de l'exécution précédente.`,
    counts: (p, t, f) => `Réussis : ${p} sur ${t} ; corrigés depuis la dernière exécution : ${f}.`,
    cases: "Nouveaux échecs :",
    open: "Voir ce qui a changé :",
  },
  it: {
    subject: (b, n) => `${b}: ${n} ${n === 1 ? "caso di test fallisce" : "casi di test falliscono"} dall'ultima esecuzione`,
    intro: (b, n) => `L'ultima esecuzione dei test di ${b} fallisce ${n} ${n === 1 ? "caso che era superato" : "casi che erano superati"} nell'esecuzione precedente.`,
    counts: (p, t, f) => `Superati: ${p} su ${t}; corretti dall'ultima esecuzione: ${f}.`,
    cases: "Nuovi fallimenti:",
    open: "Guarda cosa è cambiato:",
  },
  jp: {
    subject: (b, n) => `${b}：前回の実行以降、${n} 件のテストケースが失敗しています`,
    intro: (b, n) => `${b} の最新のテスト実行で、前回は合格していた ${n} 件のケースが失敗しました。`,
    counts: (p, t, f) => `合格：${t} 件中 ${p} 件。前回の実行以降に修正：${f} 件。`,
    cases: "新たな失敗：",
    open: "変更点を確認する：",
  },
  cn: {
    subject: (b, n) => `${b}：自上次运行以来有 ${n} 个测试用例失败`,
    intro: (b, n) => `${b} 的最新测试运行中，有 ${n} 个在上次运行中通过的用例失败了。`,
    counts: (p, t, f) => `通过：${p}/${t}；自上次运行以来修复：${f}。`,
    cases: "新的失败：",
    open: "查看变化：",
  },
  el: {
    subject: (b, n) => `${b}: ${n} ${n === 1 ? "περίπτωση ελέγχου αποτυγχάνει" : "περιπτώσεις ελέγχου αποτυγχάνουν"} από την τελευταία εκτέλεση`,
    intro: (b, n) => `Η τελευταία εκτέλεση ελέγχων του ${b} αποτυγχάνει σε ${n} ${n === 1 ? "περίπτωση που πέρασε" : "περιπτώσεις που πέρασαν"} στην προηγούμενη εκτέλεση.`,
    counts: (p, t, f) => `Πέρασαν: ${p} από ${t}· διορθώθηκαν από την τελευταία εκτέλεση: ${f}.`,
    cases: "Νέες αποτυχίες:",
    open: "Δείτε τι άλλαξε:",
  },
  pl: {
    subject: (b, n) => `${b}: nowe niepowodzenia testów od ostatniego przebiegu: ${n}`,
    intro: (b, n) => `Najnowszy przebieg testów ${b}: liczba przypadków, które przechodziły w poprzednim przebiegu, a teraz nie przechodzą: ${n}.`,
    counts: (p, t, f) => `Zaliczone: ${p} z ${t}; naprawione od ostatniego przebiegu: ${f}.`,
    cases: "Nowe niepowodzenia:",
    open: "Zobacz, co się zmieniło:",
  },
  nl: {
    subject: (b, n) => `${b}: ${n} ${n === 1 ? "testgeval faalt" : "testgevallen falen"} sinds de vorige run`,
    intro: (b, n) => `De nieuwste testrun van ${b} laat ${n} ${n === 1 ? "geval falen dat" : "gevallen falen die"} in de vorige run slaagden.`,
    counts: (p, t, f) => `Geslaagd: ${p} van ${t}; opgelost sinds de vorige run: ${f}.`,
    cases: "Nieuwe mislukkingen:",
    open: "Bekijk wat er veranderd is:",
  },
};

export const regressionWords = (language: string | null | undefined): RegressionWords =>
  (MAIL_LANGUAGES as readonly string[]).includes(language ?? "") ? WORDS[language as MailLanguage] : WORDS.en;

export interface RegressionReport {
  bot: string;
  link: string;
  total: number;
  passed: number;
  fixed: number;
  /** The questions of the cases that fail now and passed before (the first few). */
  questions: string[];
  regressions: number;
}

/** The mail in one language. */
export function regressionMail(language: string | null | undefined, r: RegressionReport): Omit<Mail, "to"> {
  const w = regressionWords(language);
  const shown = r.questions.slice(0, 10);
  const more = r.regressions > shown.length ? ["…"] : [];
  const text = [
    w.intro(r.bot, r.regressions),
    w.counts(r.passed, r.total, r.fixed),
    "",
    w.cases,
    ...shown.map((q) => `- ${q}`),
    ...more,
    "",
    w.open,
    r.link,
  ].join("\n");
  const html = `<p>${escapeHtml(w.intro(r.bot, r.regressions))}</p><p>${escapeHtml(w.counts(r.passed, r.total, r.fixed))}</p>` +
    `<p>${escapeHtml(w.cases)}</p><ul>${[...shown, ...more].map((q) => `<li>${escapeHtml(q)}</li>`).join("")}</ul>` +
    `<p>${escapeHtml(w.open)} <a href="${escapeHtml(r.link)}">${escapeHtml(r.link)}</a></p>`;
  return { subject: w.subject(r.bot, r.regressions), text, html };
}
