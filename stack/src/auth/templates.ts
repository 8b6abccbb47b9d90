// The emails auth sends (confirmation, invite, magic link, recovery, email change)
// in the ten languages of the app, chosen from user_metadata.locale.
import { escapeHtml } from "../mail/pages.ts";

export type TemplateKind = "confirmation" | "invite" | "magic_link" | "recovery" | "email_change";
export const LANGUAGES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export type Lang = (typeof LANGUAGES)[number];

interface Text {
  subject: string;
  intro: string;
  action: string;
}
interface LangTexts {
  kinds: Record<TemplateKind, Text>;
  code: string;
  ignore: string;
}

const T: Record<Lang, LangTexts> = {
  en: {
    kinds: {
      confirmation: { subject: "Confirm your signup", intro: "Follow this link to confirm your email address:", action: "Confirm your email" },
      invite: { subject: "You have been invited", intro: "You have been invited to create an account. Follow this link to accept the invitation:", action: "Accept the invitation" },
      magic_link: { subject: "Your sign-in link", intro: "Follow this link to sign in:", action: "Sign in" },
      recovery: { subject: "Reset your password", intro: "Follow this link to reset the password of your account:", action: "Reset password" },
      email_change: { subject: "Confirm your email change", intro: "Follow this link to confirm the change of your email address from {old} to {new}:", action: "Confirm the change" },
    },
    code: "Or enter this code:",
    ignore: "If you did not ask for this, you can ignore this email.",
  },
  de: {
    kinds: {
      confirmation: { subject: "Bestätigen Sie Ihre Registrierung", intro: "Folgen Sie diesem Link, um Ihre E-Mail-Adresse zu bestätigen:", action: "E-Mail bestätigen" },
      invite: { subject: "Sie wurden eingeladen", intro: "Sie wurden eingeladen, ein Konto zu erstellen. Folgen Sie diesem Link, um die Einladung anzunehmen:", action: "Einladung annehmen" },
      magic_link: { subject: "Ihr Anmeldelink", intro: "Folgen Sie diesem Link, um sich anzumelden:", action: "Anmelden" },
      recovery: { subject: "Setzen Sie Ihr Passwort zurück", intro: "Folgen Sie diesem Link, um das Passwort Ihres Kontos zurückzusetzen:", action: "Passwort zurücksetzen" },
      email_change: { subject: "Bestätigen Sie die Änderung Ihrer E-Mail-Adresse", intro: "Folgen Sie diesem Link, um die Änderung Ihrer E-Mail-Adresse von {old} zu {new} zu bestätigen:", action: "Änderung bestätigen" },
    },
    code: "Oder geben Sie diesen Code ein:",
    ignore: "Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.",
  },
  es: {
    kinds: {
      confirmation: { subject: "Confirma tu registro", intro: "Sigue este enlace para confirmar tu dirección de correo electrónico:", action: "Confirmar correo" },
      invite: { subject: "Has recibido una invitación", intro: "Te han invitado a crear una cuenta. Sigue este enlace para aceptar la invitación:", action: "Aceptar la invitación" },
      magic_link: { subject: "Tu enlace de inicio de sesión", intro: "Sigue este enlace para iniciar sesión:", action: "Iniciar sesión" },
      recovery: { subject: "Restablece tu contraseña", intro: "Sigue este enlace para restablecer la contraseña de tu cuenta:", action: "Restablecer contraseña" },
      email_change: { subject: "Confirma el cambio de correo", intro: "Sigue este enlace para confirmar el cambio de tu correo de {old} a {new}:", action: "Confirmar el cambio" },
    },
    code: "O introduce este código:",
    ignore: "Si no lo has solicitado, puedes ignorar este correo.",
  },
  fr: {
    kinds: {
      confirmation: { subject: "Confirmez votre inscription", intro: "Suivez ce lien pour confirmer votre adresse e-mail :", action: "Confirmer l'e-mail" },
      invite: { subject: "Vous avez été invité", intro: "Vous avez été invité à créer un compte. Suivez ce lien pour accepter l'invitation :", action: "Accepter l'invitation" },
      magic_link: { subject: "Votre lien de connexion", intro: "Suivez ce lien pour vous connecter :", action: "Se connecter" },
      recovery: { subject: "Réinitialisez votre mot de passe", intro: "Suivez ce lien pour réinitialiser le mot de passe de votre compte :", action: "Réinitialiser le mot de passe" },
      email_change: { subject: "Confirmez le changement d'adresse e-mail", intro: "Suivez ce lien pour confirmer le changement de votre adresse e-mail de {old} à {new} :", action: "Confirmer le changement" },
    },
    code: "Ou saisissez ce code :",
    ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail.",
  },
  it: {
    kinds: {
      confirmation: { subject: "Conferma la tua registrazione", intro: "Segui questo link per confermare il tuo indirizzo email:", action: "Conferma l'email" },
      invite: { subject: "Sei stato invitato", intro: "Sei stato invitato a creare un account. Segui questo link per accettare l'invito:", action: "Accetta l'invito" },
      magic_link: { subject: "Il tuo link di accesso", intro: "Segui questo link per accedere:", action: "Accedi" },
      recovery: { subject: "Reimposta la tua password", intro: "Segui questo link per reimpostare la password del tuo account:", action: "Reimposta la password" },
      email_change: { subject: "Conferma il cambio di email", intro: "Segui questo link per confermare il cambio del tuo indirizzo email da {old} a {new}:", action: "Conferma il cambio" },
    },
    code: "Oppure inserisci questo codice:",
    ignore: "Se non hai richiesto nulla, ignora questa email.",
  },
  jp: {
    kinds: {
      confirmation: { subject: "登録を確認してください", intro: "次のリンクからメールアドレスを確認してください：", action: "メールアドレスを確認" },
      invite: { subject: "招待が届いています", intro: "アカウントの作成に招待されました。次のリンクから招待を承諾してください：", action: "招待を承諾" },
      magic_link: { subject: "ログイン用リンク", intro: "次のリンクからログインしてください：", action: "ログイン" },
      recovery: { subject: "パスワードの再設定", intro: "次のリンクからアカウントのパスワードを再設定してください：", action: "パスワードを再設定" },
      email_change: { subject: "メールアドレス変更の確認", intro: "次のリンクから、メールアドレスを {old} から {new} に変更することを確認してください：", action: "変更を確認" },
    },
    code: "または次のコードを入力してください：",
    ignore: "心当たりがない場合は、このメールを無視してください。",
  },
  cn: {
    kinds: {
      confirmation: { subject: "确认您的注册", intro: "请点击此链接确认您的电子邮件地址：", action: "确认邮箱" },
      invite: { subject: "您收到了邀请", intro: "您被邀请创建一个账户。请点击此链接接受邀请：", action: "接受邀请" },
      magic_link: { subject: "您的登录链接", intro: "请点击此链接登录：", action: "登录" },
      recovery: { subject: "重置您的密码", intro: "请点击此链接重置您账户的密码：", action: "重置密码" },
      email_change: { subject: "确认更改电子邮件地址", intro: "请点击此链接确认将您的电子邮件地址从 {old} 更改为 {new}：", action: "确认更改" },
    },
    code: "或输入此验证码：",
    ignore: "如果这不是您本人的操作，请忽略此邮件。",
  },
  el: {
    kinds: {
      confirmation: { subject: "Επιβεβαιώστε την εγγραφή σας", intro: "Ακολουθήστε αυτόν τον σύνδεσμο για να επιβεβαιώσετε τη διεύθυνση email σας:", action: "Επιβεβαίωση email" },
      invite: { subject: "Έχετε προσκληθεί", intro: "Έχετε προσκληθεί να δημιουργήσετε λογαριασμό. Ακολουθήστε αυτόν τον σύνδεσμο για να αποδεχτείτε την πρόσκληση:", action: "Αποδοχή πρόσκλησης" },
      magic_link: { subject: "Ο σύνδεσμος σύνδεσής σας", intro: "Ακολουθήστε αυτόν τον σύνδεσμο για να συνδεθείτε:", action: "Σύνδεση" },
      recovery: { subject: "Επαναφορά κωδικού πρόσβασης", intro: "Ακολουθήστε αυτόν τον σύνδεσμο για να επαναφέρετε τον κωδικό πρόσβασης του λογαριασμού σας:", action: "Επαναφορά κωδικού" },
      email_change: { subject: "Επιβεβαιώστε την αλλαγή email", intro: "Ακολουθήστε αυτόν τον σύνδεσμο για να επιβεβαιώσετε την αλλαγή του email σας από {old} σε {new}:", action: "Επιβεβαίωση αλλαγής" },
    },
    code: "Ή πληκτρολογήστε αυτόν τον κωδικό:",
    ignore: "Αν δεν το ζητήσατε εσείς, αγνοήστε αυτό το email.",
  },
  pl: {
    kinds: {
      confirmation: { subject: "Potwierdź rejestrację", intro: "Kliknij ten link, aby potwierdzić swój adres e-mail:", action: "Potwierdź e-mail" },
      invite: { subject: "Otrzymałeś zaproszenie", intro: "Zaproszono cię do założenia konta. Kliknij ten link, aby przyjąć zaproszenie:", action: "Przyjmij zaproszenie" },
      magic_link: { subject: "Twój link do logowania", intro: "Kliknij ten link, aby się zalogować:", action: "Zaloguj się" },
      recovery: { subject: "Zresetuj hasło", intro: "Kliknij ten link, aby zresetować hasło do swojego konta:", action: "Zresetuj hasło" },
      email_change: { subject: "Potwierdź zmianę adresu e-mail", intro: "Kliknij ten link, aby potwierdzić zmianę adresu e-mail z {old} na {new}:", action: "Potwierdź zmianę" },
    },
    code: "Lub wpisz ten kod:",
    ignore: "Jeśli to nie ty, zignoruj tę wiadomość.",
  },
  nl: {
    kinds: {
      confirmation: { subject: "Bevestig je registratie", intro: "Volg deze link om je e-mailadres te bevestigen:", action: "E-mailadres bevestigen" },
      invite: { subject: "Je bent uitgenodigd", intro: "Je bent uitgenodigd om een account aan te maken. Volg deze link om de uitnodiging te accepteren:", action: "Uitnodiging accepteren" },
      magic_link: { subject: "Je inloglink", intro: "Volg deze link om in te loggen:", action: "Inloggen" },
      recovery: { subject: "Stel je wachtwoord opnieuw in", intro: "Volg deze link om het wachtwoord van je account opnieuw in te stellen:", action: "Wachtwoord opnieuw instellen" },
      email_change: { subject: "Bevestig de wijziging van je e-mailadres", intro: "Volg deze link om de wijziging van je e-mailadres van {old} naar {new} te bevestigen:", action: "Wijziging bevestigen" },
    },
    code: "Of voer deze code in:",
    ignore: "Als je dit niet hebt aangevraagd, kun je deze e-mail negeren.",
  },
};

const ALIASES: Record<string, Lang> = { ja: "jp", zh: "cn", gr: "el" };

/** "de-CH" -> de, "ja" -> jp, anything unknown -> en. */
export function pickLanguage(locale: unknown): Lang {
  if (typeof locale !== "string") return "en";
  const base = locale.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  if ((LANGUAGES as readonly string[]).includes(base)) return base as Lang;
  return ALIASES[base] ?? "en";
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export function renderMail(kind: TemplateKind, lang: Lang, vars: { url: string; otp: string; oldEmail?: string; newEmail?: string }): RenderedMail {
  const t = T[lang];
  // An anonymous user adding an address has no old one to name.
  const k = kind === "email_change" && !vars.oldEmail ? { ...t.kinds.email_change, intro: t.kinds.confirmation.intro } : t.kinds[kind];
  const fill = (s: string, esc: (x: string) => string) => s.replace("{old}", esc(vars.oldEmail ?? "")).replace("{new}", esc(vars.newEmail ?? ""));
  const html = `<!doctype html><html lang="${lang === "jp" ? "ja" : lang === "cn" ? "zh" : lang}"><body style="font-family:sans-serif">
<h2>${escapeHtml(k.subject)}</h2>
<p>${fill(escapeHtml(k.intro), escapeHtml)}</p>
<p><a href="${escapeHtml(vars.url)}">${escapeHtml(k.action)}</a></p>
<p>${escapeHtml(t.code)} <strong>${escapeHtml(vars.otp)}</strong></p>
<p style="color:#777">${escapeHtml(t.ignore)}</p>
</body></html>`;
  const text = `${k.subject}\n\n${fill(k.intro, (x) => x)}\n${vars.url}\n\n${t.code} ${vars.otp}\n\n${t.ignore}\n`;
  return { subject: k.subject, html, text };
}
