// Tells the bot's team that a chat needs a person: an e-mail to every member, sent the way
// team-invite sends mail (auth's own mail path: the dev mailbox or SMTP), as a sign-in link that
// lands on the conversation.
import type { Db } from "../clients.ts";
import { must } from "../db.ts";
import { env } from "../env.ts";

export async function notifyHandoff(service: Db, botId: string, chatId: string): Promise<number> {
  const bot = must(await service.from("bots").select("team_id").eq("id", botId).single(), "bot team");
  const members = must(await service.from("team_members").select("user_id").eq("team_id", bot.team_id), "team members");
  const link = `${env.siteUrl.replace(/\/+$/, "")}/app/conversations/${botId}?chat=${chatId}&needs_human=1`;
  let sent = 0;
  for (const m of members) {
    const user = await service.auth.admin.getUserById(m.user_id);
    const email = user.data.user?.email;
    if (!email) continue;
    const otp = await service.auth.signInWithOtp({ email, options: { shouldCreateUser: false, emailRedirectTo: link } });
    if (!otp.error) sent++;
  }
  return sent;
}
