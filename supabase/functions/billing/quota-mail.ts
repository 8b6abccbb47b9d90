// The e-mail a team's owners get when the month's answers reach 80 % or 100 % of the plan's quota,
// in each owner's interface language (profiles.preferred_language; the billing address gets the
// first owner's).
import { escapeHtml, type Mail } from "../_shared/mail.ts";

export interface QuotaNotice {
  team_name: string;
  threshold: number;
  used: number;
  quota: number;
}

export interface Recipient {
  email: string;
  language: string | null;
}

interface QuotaText {
  subject80: (team: string, pct: number) => string;
  subject100: (team: string) => string;
  used: (used: number, quota: number) => string;
  paused: string;
  action: string;
}

const TEXT: Record<string, QuotaText> = {
  en: {
    subject80: (t, p) => `${t}: ${p} % of this month's message quota used`,
    subject100: (t) => `${t}: this month's message quota is used up`,
    used: (u, q) => `Your bots have answered ${u} of the ${q} messages your plan includes this month.`,
    paused: "Until the month ends, visitors are told the bot is not available right now.",
    action: "Upgrade your plan to raise the limit",
  },
  de: {
    subject80: (t, p) => `${t}: ${p} % des monatlichen Nachrichtenkontingents verbraucht`,
    subject100: (t) => `${t}: das Nachrichtenkontingent dieses Monats ist aufgebraucht`,
    used: (u, q) => `Ihre Bots haben ${u} der ${q} Nachrichten beantwortet, die Ihr Plan in diesem Monat enthält.`,
    paused: "Bis zum Monatsende erfahren Besucher, dass der Bot gerade nicht verfügbar ist.",
    action: "Plan upgraden, um das Limit zu erhöhen",
  },
  es: {
    subject80: (t, p) => `${t}: ${p} % de la cuota mensual de mensajes usada`,
    subject100: (t) => `${t}: la cuota de mensajes de este mes se ha agotado`,
    used: (u, q) => `Tus bots han respondido ${u} de los ${q} mensajes que incluye tu plan este mes.`,
    paused: "Hasta que termine el mes, los visitantes verán que el bot no está disponible ahora.",
    action: "Mejora tu plan para ampliar el límite",
  },
  fr: {
    subject80: (t, p) => `${t} : ${p} % du quota mensuel de messages utilisé`,
    subject100: (t) => `${t} : le quota de messages du mois est épuisé`,
    used: (u, q) => `Vos bots ont répondu à ${u} des ${q} messages inclus dans votre offre ce mois-ci.`,
    paused: "Jusqu'à la fin du mois, les visiteurs apprennent que le bot n'est pas disponible pour le moment.",
    action: "Passez à une offre supérieure pour relever la limite",
  },
  it: {
    subject80: (t, p) => `${t}: usato il ${p} % della quota mensile di messaggi`,
    subject100: (t) => `${t}: la quota di messaggi di questo mese è esaurita`,
    used: (u, q) => `I tuoi bot hanno risposto a ${u} dei ${q} messaggi inclusi nel piano questo mese.`,
    paused: "Fino alla fine del mese, i visitatori vedranno che il bot non è disponibile al momento.",
    action: "Passa a un piano superiore per alzare il limite",
  },
  jp: {
    subject80: (t, p) => `${t}: 今月のメッセージ枠の ${p} % を使用しました`,
    subject100: (t) => `${t}: 今月のメッセージ枠を使い切りました`,
    used: (u, q) => `今月、ボットはプランに含まれる ${q} 件のうち ${u} 件のメッセージに回答しました。`,
    paused: "月末までは、訪問者にボットが現在利用できないことが表示されます。",
    action: "プランをアップグレードして上限を引き上げる",
  },
  cn: {
    subject80: (t, p) => `${t}：本月消息额度已使用 ${p} %`,
    subject100: (t) => `${t}：本月消息额度已用完`,
    used: (u, q) => `本月您的机器人已回答了套餐所含 ${q} 条消息中的 ${u} 条。`,
    paused: "在本月结束前，访客会看到机器人目前不可用。",
    action: "升级套餐以提高上限",
  },
  el: {
    subject80: (t, p) => `${t}: χρησιμοποιήθηκε το ${p} % του μηνιαίου ορίου μηνυμάτων`,
    subject100: (t) => `${t}: το όριο μηνυμάτων αυτού του μήνα εξαντλήθηκε`,
    used: (u, q) => `Τα bots σας απάντησαν σε ${u} από τα ${q} μηνύματα που περιλαμβάνει το πακέτο σας αυτόν τον μήνα.`,
    paused: "Μέχρι το τέλος του μήνα, οι επισκέπτες βλέπουν ότι το bot δεν είναι διαθέσιμο τώρα.",
    action: "Αναβαθμίστε το πακέτο σας για μεγαλύτερο όριο",
  },
  pl: {
    subject80: (t, p) => `${t}: wykorzystano ${p} % miesięcznego limitu wiadomości`,
    subject100: (t) => `${t}: limit wiadomości na ten miesiąc się wyczerpał`,
    used: (u, q) => `Twoje boty odpowiedziały na ${u} z ${q} wiadomości zawartych w planie w tym miesiącu.`,
    paused: "Do końca miesiąca odwiedzający zobaczą, że bot jest teraz niedostępny.",
    action: "Przejdź na wyższy plan, aby zwiększyć limit",
  },
  nl: {
    subject80: (t, p) => `${t}: ${p} % van het maandelijkse berichtenquotum gebruikt`,
    subject100: (t) => `${t}: het berichtenquotum van deze maand is op`,
    used: (u, q) => `Je bots hebben ${u} van de ${q} berichten beantwoord die je abonnement deze maand bevat.`,
    paused: "Tot het einde van de maand horen bezoekers dat de bot nu niet beschikbaar is.",
    action: "Upgrade je abonnement om de limiet te verhogen",
  },
};

/** One mail per language among the recipients. */
export function quotaMails(notice: QuotaNotice, recipients: Recipient[], billingUrl: string): Mail[] {
  const byLanguage = new Map<string, string[]>();
  for (const r of recipients) {
    const language = r.language && TEXT[r.language] ? r.language : "en";
    byLanguage.set(language, [...(byLanguage.get(language) ?? []), r.email]);
  }
  return [...byLanguage].map(([language, to]) => {
    const t = TEXT[language]!;
    const full = notice.threshold >= 100;
    const lines = [t.used(notice.used, notice.quota), ...(full ? [t.paused] : [])];
    const url = language === "en" ? billingUrl : billingUrl.replace(/(\/\/[^/]+)\//, `$1/${language}/`);
    return {
      to,
      subject: full ? t.subject100(notice.team_name) : t.subject80(notice.team_name, notice.threshold),
      text: [...lines, `${t.action}: ${url}`].join("\n\n"),
      html: `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}<p><a href="${escapeHtml(url)}">${escapeHtml(t.action)}</a></p>`,
    };
  });
}
