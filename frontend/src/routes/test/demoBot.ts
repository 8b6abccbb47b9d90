/** The seeded public bot ("Acme Help Center") the test pages use unless ?bot= says otherwise. */
export const DEMO_BOT_ID = "c0000000-0000-4000-8000-000000000001";
