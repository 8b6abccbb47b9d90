// The visitor's realtime client (its own chunk, loaded when a chat is watched live), set up as
// supabase-js sets up its own: the anon key as apikey, the session's token for the channels.
import { RealtimeClient } from "@supabase/realtime-js";

export function createRealtime(supabaseUrl: string, key: string, token: () => Promise<string | null>): RealtimeClient {
  const url = new URL("realtime/v1", `${supabaseUrl}/`);
  url.protocol = url.protocol.replace("http", "ws");
  return new RealtimeClient(url.href, { params: { apikey: key }, accessToken: async () => (await token()) ?? key });
}
