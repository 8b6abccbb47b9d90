// The "you already have an account" e-mail in the ten interface languages.
import type { Locale } from "../_shared/contracts/team-invite.ts";
import { env } from "../_shared/env.ts";
import { escapeHtml } from "../_shared/mail.ts";

export interface NoticeText {
  subject: string;
  lead: string;
  login: string;
  reset: string;
  notYou: string;
}

export const NOTICE: Record<Locale, NoticeText> = {
  en: {
    subject: "You already have a Parley account",
    lead: "Someone, probably you, tried to sign up for Parley with this address. You already have an account, so no new one was made.",
    login: "Log in",
    reset: "Forgot your password? Set a new one",
    notYou: "If this was not you, you can ignore this e-mail: nothing has changed.",
  },
  de: {
    subject: "Sie haben bereits ein Parley-Konto",
    lead: "Jemand, wahrscheinlich Sie, wollte sich mit dieser Adresse bei Parley registrieren. Sie haben bereits ein Konto, daher wurde kein neues angelegt.",
    login: "Anmelden",
    reset: "Passwort vergessen? Neues festlegen",
    notYou: "Wenn Sie das nicht waren, können Sie diese E-Mail ignorieren: Es hat sich nichts geändert.",
  },
  es: {
    subject: "Ya tiene una cuenta de Parley",
    lead: "Alguien, probablemente usted, intentó registrarse en Parley con esta dirección. Ya tiene una cuenta, así que no se creó otra.",
    login: "Iniciar sesión",
    reset: "¿Olvidó su contraseña? Elija una nueva",
    notYou: "Si no fue usted, puede ignorar este correo: no ha cambiado nada.",
  },
  fr: {
    subject: "Vous avez déjà un compte Parley",
    lead: "Quelqu'un, sans doute vous, a essayé de s'inscrire sur Parley avec cette adresse. Vous avez déjà un compte, aucun autre n'a donc été créé.",
    login: "Se connecter",
    reset: "Mot de passe oublié ? En choisir un nouveau",
    notYou: "Si ce n'était pas vous, ignorez cet e-mail : rien n'a changé.",
  },
  it: {
    subject: "Avete già un account Parley",
    lead: "Qualcuno, probabilmente voi, ha provato a registrarsi su Parley con questo indirizzo. Avete già un account, quindi non ne è stato creato un altro.",
    login: "Accedi",
    reset: "Password dimenticata? Impostatene una nuova",
    notYou: "Se non siete stati voi, potete ignorare questa email: non è cambiato nulla.",
  },
  jp: {
    subject: "Parley のアカウントはすでにあります",
    lead: "どなたか（おそらくご本人）がこのアドレスで Parley に登録しようとしました。アカウントはすでにあるため、新しいアカウントは作成されていません。",
    login: "ログイン",
    reset: "パスワードをお忘れですか？新しいパスワードを設定",
    notYou: "お心当たりがない場合は、このメールを無視してください。何も変更されていません。",
  },
  cn: {
    subject: "您已经有 Parley 账户了",
    lead: "有人（可能是您本人）尝试用此地址注册 Parley。您已经有账户，因此没有创建新账户。",
    login: "登录",
    reset: "忘记密码？设置新密码",
    notYou: "如果这不是您本人的操作，请忽略此邮件：没有任何更改。",
  },
  el: {
    subject: "Έχετε ήδη λογαριασμό Parley",
    lead: "Κάποιος, πιθανότατα εσείς, προσπάθησε να εγγραφεί στο Parley με αυτή τη διεύθυνση. Έχετε ήδη λογαριασμό, οπότε δεν δημιουργήθηκε νέος.",
    login: "Σύνδεση",
    reset: "Ξεχάσατε τον κωδικό; Ορίστε νέο",
    notYou: "Αν δεν ήσασταν εσείς, αγνοήστε αυτό το email: δεν άλλαξε τίποτα.",
  },
  pl: {
    subject: "Masz już konto w Parley",
    lead: "Ktoś, prawdopodobnie Ty, próbował zarejestrować się w Parley z tym adresem. Masz już konto, więc nowe nie zostało utworzone.",
    login: "Zaloguj się",
    reset: "Nie pamiętasz hasła? Ustaw nowe",
    notYou: "Jeśli to nie Ty, zignoruj tę wiadomość: nic się nie zmieniło.",
  },
  nl: {
    subject: "U hebt al een Parley-account",
    lead: "Iemand, waarschijnlijk u, probeerde zich met dit adres bij Parley te registreren. U hebt al een account, dus er is geen nieuw aangemaakt.",
    login: "Inloggen",
    reset: "Wachtwoord vergeten? Stel een nieuw in",
    notYou: "Was u dit niet, dan kunt u deze e-mail negeren: er is niets veranderd.",
  },
};

/** A page of the app in a language (English has no prefix). */
function pageUrl(locale: Locale, path: string): string {
  return `${env.siteUrl.replace(/\/+$/, "")}${locale === "en" ? "" : `/${locale}`}${path}`;
}

export function noticeMail(locale: Locale): { subject: string; text: string; html: string } {
  const t = NOTICE[locale];
  const login = pageUrl(locale, "/app/auth/login");
  const reset = pageUrl(locale, "/app/auth/forgotten-password");
  const text = `${t.lead}\n\n${t.login}: ${login}\n${t.reset}: ${reset}\n\n${t.notYou}\n`;
  const lang = locale === "jp" ? "ja" : locale === "cn" ? "zh" : locale;
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif">
<h2>${escapeHtml(t.subject)}</h2>
<p>${escapeHtml(t.lead)}</p>
<p><a href="${escapeHtml(login)}">${escapeHtml(t.login)}</a></p>
<p><a href="${escapeHtml(reset)}">${escapeHtml(t.reset)}</a></p>
<p style="color:#777">${escapeHtml(t.notYou)}</p>
</body></html>`;
  return { subject: t.subject, text, html };
}
