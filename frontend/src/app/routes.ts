// THE route table: every screen of Parley is listed here once, unprefixed. The router
// (app/router.tsx) turns each entry into ten routes, one per language, and wires layout,
// guard, validation and lazy loading. A later screen adds one entry here and its module
// under src/routes/.
import type { ComponentType } from "react";
import type { LoaderFunctionArgs } from "react-router";
import type { LocaleCode } from "../i18n/locales";
import { CHANNELS, DATA_SOURCES, LEGAL_DOCUMENTS as LEGAL } from "../features/site/topics";
import type { ParamRules } from "./validation";

export type LayoutName = "app" | "app-full" | "app-full-flex-col" | "app-wide" | "basic" | "default" | "docs" | "gallery" | "none";
export type GuardName = "auth" | "admin-auth" | "bot-auth";
export type Role = "owner" | "admin";
export type ColorModeForce = "light" | "dark" | "system";

export interface ScreenLoaderArgs extends LoaderFunctionArgs {
  def: RouteDef;
  locale: LocaleCode;
}

/** What a lazily loaded screen module exports. */
export interface RouteModule {
  default: ComponentType;
  /** Optional data loader, run after the route's checks (redirects, validation, guard). */
  loader?: (args: ScreenLoaderArgs) => unknown;
}

export interface RouteDef {
  /** Stable id; the router prefixes it with the locale ("de:blog.post"). */
  id: string;
  /** react-router path without language prefix ("/blog/:slug", "/pages/*"). */
  path: string;
  layout: LayoutName;
  /** A guard name; a name without a guard fails with "Unknown route middleware". */
  guard?: GuardName | (string & {});
  /** Rules on params; failing → 404 "Page Not Found: {path}". */
  validate?: ParamRules;
  /** Roles the screen needs inside its team (metadata for screens and menus). */
  roles?: readonly Role[];
  /** Message id of the page title. */
  title: string;
  /** Force a colour mode on this page ("system" is ignored). */
  colorMode?: ColorModeForce;
  /** Extra data for generic screens (which channel, which legal document...). */
  meta?: Record<string, string>;
  /** Prerender to static HTML at build time: true for a static path, or a param list. */
  prerender?: boolean | (() => Promise<Record<string, string>[]>);
  component: () => Promise<RouteModule>;
}

const marketing = {
  home: () => import("../routes/marketing/HomePage"),
  faq: () => import("../routes/marketing/FaqPage"),
  models: () => import("../routes/marketing/ModelsPage"),
  features: () => import("../routes/marketing/FeaturesPage"),
  topicIndex: () => import("../routes/marketing/TopicIndexPage"),
  topic: () => import("../routes/marketing/TopicPage"),
  useCase: () => import("../routes/marketing/UseCaseAuthorPage"),
  contentList: () => import("../routes/marketing/ContentListPage"),
  contentPage: () => import("../routes/marketing/ContentPage"),
  gallery: () => import("../routes/marketing/GalleryPage"),
  galleryBot: () => import("../routes/marketing/GalleryBotPage"),
  testPage: () => import("../routes/marketing/TestPage"),
};
const authPages: Record<string, () => Promise<RouteModule>> = {
  login: () => import("../routes/auth/LoginPage"),
  register: () => import("../routes/auth/RegisterPage"),
  reset: () => import("../routes/auth/ResetPage"),
  invite: () => import("../routes/auth/InvitePage"),
  "confirm-email": () => import("../routes/auth/ConfirmEmailPage"),
  "forgotten-password": () => import("../routes/auth/ForgottenPasswordPage"),
  provider: () => import("../routes/auth/ProviderStartPage"),
  callback: () => import("../routes/auth/ProviderCallbackPage"),
  mfa: () => import("../routes/auth/MfaPage"),
};

const slugParams = (collection: string) => async () => {
  const { listContent } = await import("../features/content/collections");
  return listContent(collection).map((item) => ({ slug: item.slug }));
};

const OWNER_ADMIN = ["owner", "admin"] as const;

const publicRoutes: RouteDef[] = [
  { id: "home", path: "/", layout: "default", title: "page.home.title", colorMode: "dark", prerender: true, component: marketing.home },
  { id: "faq", path: "/faq", layout: "default", title: "page.faq.title", prerender: true, component: marketing.faq },
  { id: "models", path: "/models", layout: "default", title: "page.models.title", colorMode: "dark", prerender: true, component: marketing.models },
  { id: "features", path: "/features", layout: "default", title: "page.features.title", colorMode: "dark", prerender: true, component: marketing.features },
  { id: "blog.index", path: "/blog", layout: "default", title: "page.blog.title", meta: { collection: "blog" }, prerender: true, component: marketing.contentList },
  { id: "blog.post", path: "/blog/:slug", layout: "default", title: "page.blog.title", validate: { slug: "slug" }, meta: { collection: "blog" }, prerender: slugParams("blog"), component: marketing.contentPage },
  { id: "docs.index", path: "/docs", layout: "docs", title: "page.docs.title", meta: { collection: "docs" }, prerender: true, component: marketing.contentList },
  { id: "docs.page", path: "/docs/:slug", layout: "docs", title: "page.docs.title", validate: { slug: "slug" }, meta: { collection: "docs" }, prerender: slugParams("docs"), component: marketing.contentPage },
  ...LEGAL.map((doc): RouteDef => ({
    id: `legal.${doc}`, path: `/legal/${doc}`, layout: "default", title: `page.legal.${doc}.title`,
    meta: { collection: "legal", slug: doc }, prerender: true, component: marketing.contentPage,
  })),
  { id: "terms", path: "/terms", layout: "default", title: "page.legal.terms.title", meta: { collection: "legal", slug: "terms" }, prerender: true, component: marketing.contentPage },
  { id: "privacy", path: "/privacy", layout: "default", title: "page.legal.privacy.title", meta: { collection: "legal", slug: "privacy" }, prerender: true, component: marketing.contentPage },
  { id: "channels.index", path: "/channels", layout: "default", title: "page.channels.title", meta: { kind: "channels" }, prerender: true, component: marketing.topicIndex },
  ...CHANNELS.map((c): RouteDef => ({
    id: `channels.${c.key}`, path: `/channels/${c.path}`, layout: "default", title: `topic.channels.${c.key}.title`,
    meta: { kind: "channels", topic: c.key }, prerender: true, component: marketing.topic,
  })),
  { id: "data-sources.index", path: "/data-sources", layout: "default", title: "page.dataSources.title", meta: { kind: "dataSources" }, prerender: true, component: marketing.topicIndex },
  ...DATA_SOURCES.map((d): RouteDef => ({
    id: `data-sources.${d.key}`, path: `/data-sources/${d.path}`, layout: "default",
    title: `topic.dataSources.${d.key}.title`, meta: { kind: "dataSources", topic: d.key },
    prerender: true, component: marketing.topic,
  })),
  { id: "use-cases.author", path: "/use-cases/author", layout: "default", title: "page.useCaseAuthor.title", colorMode: "dark", prerender: true, component: marketing.useCase },
  { id: "launch-week", path: "/launch-week/:slug", layout: "default", title: "page.launchWeek.title", colorMode: "dark", validate: { slug: "slug" }, meta: { collection: "launch-week" }, prerender: slugParams("launch-week"), component: marketing.contentPage },
  { id: "pricing", path: "/pricing", layout: "default", title: "page.pricing.title", component: () => import("../routes/marketing/PricingPage") },
  { id: "gallery", path: "/gallery", layout: "gallery", title: "page.gallery.title", prerender: true, component: marketing.gallery },
  { id: "gallery.bot", path: "/gallery/:botId", layout: "gallery", title: "page.gallery.title", validate: { botId: "uuid" }, component: marketing.galleryBot },
  { id: "pages", path: "/pages/*", layout: "default", title: "page.pages.title", validate: { "*": "slugPath" }, meta: { collection: "pages" }, prerender: slugParams("pages"), component: marketing.contentPage },
  { id: "test.widget", path: "/test/widget", layout: "none", title: "page.test.widget.title", meta: { test: "widget" }, component: () => import("../routes/test/WidgetTestPage") },
  { id: "test.features", path: "/test/features", layout: "none", title: "page.test.features.title", meta: { test: "features" }, component: () => import("../routes/test/FeaturesTestPage") },
];

const botRoutes: RouteDef[] = [
  { id: "bots.chat", path: "/bots/:botId", layout: "app-full-flex-col", guard: "bot-auth", title: "page.bots.chat.title", validate: { botId: "uuid" }, component: () => import("../routes/bots/ChatPage") },
  { id: "bots.chat.detail", path: "/bots/:botId/chats/:chatId", layout: "app-full-flex-col", guard: "bot-auth", title: "page.bots.chat.title", validate: { botId: "uuid", chatId: "uuid" }, component: () => import("../routes/bots/ChatPage") },
  { id: "bots.sdk", path: "/bots/:botId/sdk", layout: "none", title: "page.bots.sdk.title", validate: { botId: "uuid" }, component: () => import("../routes/bots/SdkPage") },
  { id: "bots.embed", path: "/bots/:botId/embed", layout: "none", title: "page.bots.embed.title", validate: { botId: "uuid" }, component: () => import("../routes/bots/EmbedPage") },
  { id: "bots.embed-center", path: "/bots/:botId/embed-center", layout: "none", title: "page.bots.embed.title", validate: { botId: "uuid" }, component: () => import("../routes/bots/EmbedCenterPage") },
  { id: "bots.login", path: "/bots/:botId/login", layout: "none", title: "page.bots.login.title", validate: { botId: "uuid" }, component: () => import("../routes/bots/LoginPage") },
];

const authRoutes: RouteDef[] = [
  ...["login", "register", "reset", "invite", "confirm-email", "forgotten-password", "mfa"].map((p): RouteDef => ({
    id: `auth.${p}`, path: `/app/auth/${p}`, layout: "basic", title: `page.auth.${p}.title`, component: authPages[p]!,
  })),
  ...["google", "notion"].map((p): RouteDef => ({
    id: `auth.providers.${p}`, path: `/app/auth/providers/${p}`, layout: "basic", title: "page.auth.provider.title", meta: { provider: p }, component: authPages.provider!,
  })),
  ...["google", "notion", "shopify", "nylas"].map((p): RouteDef => ({
    id: `auth.providers.${p}.callback`, path: `/app/auth/providers/${p}/callback`, layout: "basic", title: "page.auth.callback.title", meta: { provider: p }, component: authPages.callback!,
  })),
];

type Extra = Partial<RouteDef> & Pick<RouteDef, "component">;

const signedIn = (id: string, path: string, title: string, extra: Extra): RouteDef => ({
  id, path, layout: "app", guard: "auth", title, ...extra,
});
const BOT = { botId: "uuid" } as const;
const DS_TABS = ["content", "general", "syncing", "scraping", "documents"] as const;
const sources = {
  list: () => import("../routes/app/data-sources/DataSourcesPage"),
  create: () => import("../routes/app/data-sources/NewDataSourcePage"),
  detail: () => import("../routes/app/data-sources/DataSourcePage"),
  settings: () => import("../routes/app/data-sources/DataSourceSettingsPage"),
};

const appRoutes: RouteDef[] = [
  signedIn("app.account", "/app/account", "page.app.account.title", { component: () => import("../routes/app/account/AccountPage") }),
  signedIn("app.teams.new", "/app/teams/new", "page.app.teams.new.title", { component: () => import("../routes/app/teams/NewTeamPage") }),
  signedIn("app.teams.detail", "/app/teams/:teamId", "page.app.teams.detail.title", { validate: { teamId: "uuid" }, roles: OWNER_ADMIN, component: () => import("../routes/app/teams/TeamPage") }),
  signedIn("app.bots", "/app/bots", "page.app.bots.title", { component: () => import("../routes/app/bots/BotsPage") }),
  signedIn("app.bots.wizard", "/app/bots/wizard", "page.app.bots.wizard.title", { layout: "app-full", roles: OWNER_ADMIN, component: () => import("../routes/app/bots/BotWizardPage") }),
  signedIn("app.bot", "/app/bots/:botId", "page.app.bot.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/bot-overview/BotOverviewPage") }),
  signedIn("app.bot.settings", "/app/bots/:botId/settings", "page.app.bot.settings.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/bots/BotSettingsPage") }),
  signedIn("app.bot.webhooks", "/app/bots/:botId/webhooks", "page.app.bot.webhooks.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/webhooks/WebhooksPage") }),
  signedIn("app.bot.tests", "/app/bots/:botId/tests", "page.app.bot.tests.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/tests/TestRunsPage") }),
  signedIn("app.bot.tests.run", "/app/bots/:botId/tests/:testRunId", "page.app.bot.tests.title", { validate: { ...BOT, testRunId: "uuid" }, roles: OWNER_ADMIN, component: () => import("../routes/app/tests/TestRunPage") }),
  signedIn("app.bot.test-cases", "/app/bots/:botId/test-cases", "page.app.bot.testCases.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/tests/TestCasesPage") }),
  signedIn("app.bot.tasks", "/app/bots/:botId/tasks", "page.app.bot.tasks.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/tasks/TasksPage") }),
  signedIn("app.bot.tasks.new", "/app/bots/:botId/tasks/new", "page.app.bot.tasks.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/tasks/NewTaskPage") }),
  signedIn("app.bot.task.settings", "/app/bots/:botId/tasks/:taskId/settings", "page.app.bot.tasks.title", { validate: { ...BOT, taskId: "uuid" }, roles: OWNER_ADMIN, component: () => import("../routes/app/tasks/TaskSettingsPage") }),
  signedIn("app.bot.power-ups", "/app/bots/:botId/power-ups", "page.app.bot.powerUps.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/powerUps/PowerUpsPage") }),
  signedIn("app.bot.power-ups.new", "/app/bots/:botId/power-ups/new", "page.app.bot.powerUps.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/powerUps/NewPowerUpPage") }),
  signedIn("app.bot.power-up.settings", "/app/bots/:botId/power-ups/:functionId/settings", "page.app.bot.powerUps.title", { validate: { ...BOT, functionId: "uuid" }, roles: OWNER_ADMIN, component: () => import("../routes/app/powerUps/PowerUpSettingsPage") }),
  signedIn("app.bot.channels", "/app/bots/:botId/channels", "page.app.bot.channels.title", { validate: BOT, roles: OWNER_ADMIN, component: () => import("../routes/app/channels/ChannelsPage") }),
  signedIn("app.bot.channel.settings", "/app/bots/:botId/channels/:channelId/settings", "page.app.bot.channels.title", { validate: { ...BOT, channelId: "uuid" }, roles: OWNER_ADMIN, component: () => import("../routes/app/channels/ChannelSettingsPage") }),
  signedIn("app.bot.data-sources", "/app/bots/:botId/data-sources", "page.app.bot.dataSources.title", { validate: BOT, roles: OWNER_ADMIN, component: sources.list }),
  signedIn("app.bot.data-sources.new", "/app/bots/:botId/data-sources/new", "page.app.bot.dataSources.title", { validate: BOT, roles: OWNER_ADMIN, component: sources.create }),
  signedIn("app.bot.data-source", "/app/bots/:botId/data-source/:dataSourceId", "page.app.bot.dataSources.title", { validate: { ...BOT, dataSourceId: "uuid" }, roles: OWNER_ADMIN, component: sources.detail }),
  signedIn("app.bot.data-source.settings", "/app/bots/:botId/data-source/:dataSourceId/settings", "page.app.bot.dataSources.title", { validate: { ...BOT, dataSourceId: "uuid" }, roles: OWNER_ADMIN, component: sources.settings }),
  ...DS_TABS.map((tab) =>
    signedIn(`app.bot.data-source.settings.${tab}`, `/app/bots/:botId/data-source/:dataSourceId/settings/${tab}`, "page.app.bot.dataSources.title", {
      validate: { ...BOT, dataSourceId: "uuid" }, roles: OWNER_ADMIN, meta: { tab }, component: sources.settings,
    }),
  ),
  signedIn("app.billing", "/app/billing", "page.app.billing.title", { roles: ["owner"], component: () => import("../routes/app/billing/BillingPage") }),
  signedIn("app.billing.cancel", "/app/billing/cancel", "page.app.billing.title", { roles: ["owner"], component: () => import("../routes/app/billing/BillingCancelPage") }),
  signedIn("app.billing.success", "/app/billing/success", "page.app.billing.title", { roles: ["owner"], component: () => import("../routes/app/billing/BillingSuccessPage") }),
  signedIn("app.my-chats", "/app/my-chats", "page.app.myChats.title", { component: () => import("../routes/app/my-chats/MyChatsPage") }),
  signedIn("app.conversations", "/app/conversations/*", "page.app.conversations.title", { layout: "app-wide", validate: { "*": "segments" }, component: () => import("../routes/app/conversations/ConversationsPage") }),
];

const admin = (id: string, path: string, title: string, extra: Extra): RouteDef => ({
  id, path, layout: "app-wide", guard: "admin-auth", title, ...extra,
});

const adminRoutes: RouteDef[] = [
  admin("admin", "/app/admin", "page.admin.title", { component: () => import("../routes/app/admin/AdminHomePage") }),
  ...["bots", "chats", "teams", "users", "team-members"].map((p) => admin(`admin.${p}`, `/app/admin/${p}`, "page.admin.title", { meta: { list: p }, component: () => import("../routes/app/admin/AdminListPage") })),
  admin("admin.audit-log", "/app/admin/audit-log", "page.admin.title", { component: () => import("../routes/app/admin/AuditLogPage") }),
  admin("admin.dashboard", "/app/admin/dashboard", "page.admin.dashboard.title", { component: () => import("../routes/app/admin/dashboard/DashboardPage") }),
  admin("admin.dashboard.plans", "/app/admin/dashboard/plans", "page.admin.dashboard.title", { meta: { section: "plans" }, component: () => import("../routes/app/admin/dashboard/PlansPage") }),
  admin("admin.dashboard.models", "/app/admin/dashboard/models", "page.admin.dashboard.title", { meta: { section: "models" }, component: () => import("../routes/app/admin/dashboard/ModelsPage") }),
  admin("admin.dashboard.channels", "/app/admin/dashboard/channels", "page.admin.dashboard.title", { meta: { section: "channels" }, component: () => import("../routes/app/admin/dashboard/ChannelsPage") }),
  admin("admin.dashboard.power-ups", "/app/admin/dashboard/power-ups", "page.admin.dashboard.title", { meta: { section: "power-ups" }, component: () => import("../routes/app/admin/dashboard/PowerUpsPage") }),
  admin("admin.dashboard.providers", "/app/admin/dashboard/providers", "page.admin.dashboard.title", { meta: { section: "providers" }, component: () => import("../routes/app/admin/dashboard/ProvidersPage") }),
  admin("admin.dashboard.data-sources", "/app/admin/dashboard/data-sources", "page.admin.dashboard.title", { meta: { section: "data-sources" }, component: () => import("../routes/app/admin/dashboard/DataSourcesPage") }),
  admin("admin.dashboard.bot", "/app/admin/dashboard/bot/:botId", "page.admin.dashboard.title", { validate: BOT, component: () => import("../routes/app/admin/detail/BotDetailPage") }),
  admin("admin.dashboard.user", "/app/admin/dashboard/user/:userId", "page.admin.dashboard.title", { validate: { userId: "uuid" }, component: () => import("../routes/app/admin/detail/UserDetailPage") }),
];

export const routeTable: readonly RouteDef[] = [...publicRoutes, ...botRoutes, ...authRoutes, ...appRoutes, ...adminRoutes];
