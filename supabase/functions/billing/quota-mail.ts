// The e-mail a team's owners get when the month's answers reach 80 % or 100 % of the plan's quota.
import { escapeHtml, type Mail } from "../_shared/mail.ts";

export interface QuotaNotice {
  team_name: string;
  threshold: number;
  used: number;
  quota: number;
}

export function quotaMail(notice: QuotaNotice, to: string[], billingUrl: string): Mail {
  const full = notice.threshold >= 100;
  const subject = full
    ? `${notice.team_name}: this month's message quota is used up`
    : `${notice.team_name}: ${notice.threshold} % of this month's message quota used`;
  const lines = [
    full
      ? `Your bots have answered ${notice.used} of the ${notice.quota} messages your plan includes this month. Until the month ends, visitors are told the bot is not available right now.`
      : `Your bots have answered ${notice.used} of the ${notice.quota} messages your plan includes this month.`,
    `Upgrade your plan to raise the limit: ${billingUrl}`,
  ];
  return {
    to,
    subject,
    text: lines.join("\n\n"),
    html: `<p>${escapeHtml(lines[0]!)}</p><p><a href="${escapeHtml(billingUrl)}">Upgrade your plan</a></p>`,
  };
}
