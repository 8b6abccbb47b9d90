// The invitation e-mail in the ten interface languages: who invited, to which team, as what.
import type { Locale, TeamRole } from "../_shared/contracts/team-invite.ts";
import { escapeHtml } from "../_shared/mail.ts";

interface InviteText {
  subject: (inviter: string, team: string) => string;
  lead: (inviter: string, team: string, role: string) => string;
  accept: string;
  newAccount: string;
  existingAccount: string;
  notExpected: string;
  roles: Record<TeamRole, string>;
}

const q = (s: string, open = "“", close = "”") => `${open}${s}${close}`;

export const INVITE: Record<Locale, InviteText> = {
  en: {
    subject: (i, t) => `${i} invited you to ${q(t)} on Parley`,
    lead: (i, t, r) => `${i} invited you to join the team ${q(t)} on Parley as ${r}.`,
    accept: "Accept the invitation",
    newAccount: "You will set a password for your new account on the way.",
    existingAccount: "You will be signed in to your account on the way.",
    notExpected: "If you did not expect this invitation, you can ignore this e-mail.",
    roles: { owner: "an owner", admin: "an admin" },
  },
  de: {
    subject: (i, t) => `${i} hat Sie zu ${q(t, "„", "“")} bei Parley eingeladen`,
    lead: (i, t, r) => `${i} hat Sie eingeladen, dem Team ${q(t, "„", "“")} bei Parley als ${r} beizutreten.`,
    accept: "Einladung annehmen",
    newAccount: "Dabei legen Sie ein Passwort für Ihr neues Konto fest.",
    existingAccount: "Dabei werden Sie bei Ihrem Konto angemeldet.",
    notExpected: "Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.",
    roles: { owner: "Inhaber", admin: "Administrator" },
  },
  es: {
    subject: (i, t) => `${i} le ha invitado a ${q(t)} en Parley`,
    lead: (i, t, r) => `${i} le ha invitado a unirse al equipo ${q(t)} en Parley como ${r}.`,
    accept: "Aceptar la invitación",
    newAccount: "Por el camino elegirá una contraseña para su nueva cuenta.",
    existingAccount: "Por el camino se iniciará sesión en su cuenta.",
    notExpected: "Si no esperaba esta invitación, puede ignorar este correo.",
    roles: { owner: "propietario", admin: "administrador" },
  },
  fr: {
    subject: (i, t) => `${i} vous a invité à rejoindre ${q(t, "« ", " »")} sur Parley`,
    lead: (i, t, r) => `${i} vous a invité à rejoindre l'équipe ${q(t, "« ", " »")} sur Parley en tant que ${r}.`,
    accept: "Accepter l'invitation",
    newAccount: "Vous choisirez au passage un mot de passe pour votre nouveau compte.",
    existingAccount: "Vous serez connecté à votre compte au passage.",
    notExpected: "Si vous n'attendiez pas cette invitation, ignorez cet e-mail.",
    roles: { owner: "propriétaire", admin: "administrateur" },
  },
  it: {
    subject: (i, t) => `${i} vi ha invitato in ${q(t)} su Parley`,
    lead: (i, t, r) => `${i} vi ha invitato a unirvi al team ${q(t)} su Parley come ${r}.`,
    accept: "Accetta l'invito",
    newAccount: "Nel farlo imposterete una password per il nuovo account.",
    existingAccount: "Nel farlo accederete al vostro account.",
    notExpected: "Se non aspettavate questo invito, potete ignorare questa email.",
    roles: { owner: "proprietario", admin: "amministratore" },
  },
  jp: {
    subject: (i, t) => `${i} さんから Parley の ${q(t, "「", "」")} に招待されました`,
    lead: (i, t, r) => `${i} さんが、Parley のチーム ${q(t, "「", "」")} に${r}として参加するようあなたを招待しました。`,
    accept: "招待を承諾",
    newAccount: "途中で新しいアカウントのパスワードを設定します。",
    existingAccount: "途中でお使いのアカウントにサインインします。",
    notExpected: "この招待に心当たりがない場合は、このメールを無視してください。",
    roles: { owner: "オーナー", admin: "管理者" },
  },
  cn: {
    subject: (i, t) => `${i} 邀请您加入 Parley 上的 ${q(t, "“", "”")}`,
    lead: (i, t, r) => `${i} 邀请您以${r}身份加入 Parley 上的团队 ${q(t, "“", "”")}。`,
    accept: "接受邀请",
    newAccount: "接受时您将为新账户设置密码。",
    existingAccount: "接受时您将登录您的账户。",
    notExpected: "如果您没有预料到此邀请，请忽略此邮件。",
    roles: { owner: "所有者", admin: "管理员" },
  },
  el: {
    subject: (i, t) => `${i} σας προσκάλεσε στην ομάδα ${q(t, "«", "»")} στο Parley`,
    lead: (i, t, r) => `${i} σας προσκάλεσε να γίνετε μέλος της ομάδας ${q(t, "«", "»")} στο Parley ως ${r}.`,
    accept: "Αποδοχή πρόσκλησης",
    newAccount: "Στην πορεία θα ορίσετε κωδικό για τον νέο σας λογαριασμό.",
    existingAccount: "Στην πορεία θα συνδεθείτε στον λογαριασμό σας.",
    notExpected: "Αν δεν περιμένατε αυτή την πρόσκληση, αγνοήστε αυτό το email.",
    roles: { owner: "κάτοχος", admin: "διαχειριστής" },
  },
  pl: {
    subject: (i, t) => `${i} zaprasza Cię do zespołu ${q(t, "„", "”")} w Parley`,
    lead: (i, t, r) => `${i} zaprasza Cię do zespołu ${q(t, "„", "”")} w Parley w roli: ${r}.`,
    accept: "Przyjmij zaproszenie",
    newAccount: "Po drodze ustawisz hasło do nowego konta.",
    existingAccount: "Po drodze zalogujesz się na swoje konto.",
    notExpected: "Jeśli nie spodziewasz się tego zaproszenia, zignoruj tę wiadomość.",
    roles: { owner: "właściciel", admin: "administrator" },
  },
  nl: {
    subject: (i, t) => `${i} heeft u uitgenodigd voor ${q(t)} op Parley`,
    lead: (i, t, r) => `${i} heeft u uitgenodigd om lid te worden van het team ${q(t)} op Parley als ${r}.`,
    accept: "Uitnodiging accepteren",
    newAccount: "Onderweg stelt u een wachtwoord in voor uw nieuwe account.",
    existingAccount: "Onderweg wordt u aangemeld bij uw account.",
    notExpected: "Als u deze uitnodiging niet verwachtte, kunt u deze e-mail negeren.",
    roles: { owner: "eigenaar", admin: "beheerder" },
  },
};

export function invitationMail(
  locale: Locale,
  v: { inviter: string; team: string; role: TeamRole; link: string; existingAccount: boolean },
): { subject: string; text: string; html: string } {
  const t = INVITE[locale];
  const role = t.roles[v.role];
  const next = v.existingAccount ? t.existingAccount : t.newAccount;
  const lead = t.lead(v.inviter, v.team, role);
  const lang = locale === "jp" ? "ja" : locale === "cn" ? "zh" : locale;
  return {
    subject: t.subject(v.inviter, v.team),
    text: `${lead}\n\n${t.accept}: ${v.link}\n${next}\n\n${t.notExpected}\n`,
    html: `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif">
<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(v.link)}">${escapeHtml(t.accept)}</a></p>
<p>${escapeHtml(next)}</p>
<p style="color:#777">${escapeHtml(t.notExpected)}</p>
</body></html>`,
  };
}
