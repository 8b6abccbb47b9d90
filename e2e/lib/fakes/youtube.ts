// A stand-in for YouTube on 127.0.0.1, as a web-standard handler shared by the Deno
// function tests and the browser tests: watch pages carrying ytInitialPlayerResponse with
// caption tracks, json3 /api/timedtext, and a playlist's /feeds/videos.xml.

export const YOUTUBE_VIDEOS: Record<string, { title: string; tracks: Record<string, [number, string][]> }> = {
  vid00000001: {
    title: "Getting started with Acme",
    tracks: {
      en: [
        [0, "Welcome to Acme."],
        [15_000, "First, create a workspace."],
        [40_000, "Then invite your team from the settings page."],
      ],
      de: [
        [0, "Willkommen bei Acme."],
        [15_000, "Erstellen Sie zuerst einen Arbeitsbereich."],
      ],
    },
  },
  vid00000002: {
    title: "Exporting notes",
    tracks: { en: [[0, "To export notes, open the menu and choose Export as PDF."]] },
  },
  vid00000003: { title: "No captions here", tracks: {} },
};

export function fakeYoutube(videos = YOUTUBE_VIDEOS) {
  function handle(req: Request): Response {
    const url = new URL(req.url);
    const base = url.origin;
    if (url.pathname === "/watch") {
      const id = url.searchParams.get("v") ?? "";
      const v = videos[id];
      if (!v) return new Response("not found", { status: 404 });
      const captionTracks = Object.keys(v.tracks).map((lang) => ({
        baseUrl: `${base}/api/timedtext?v=${id}\\u0026lang=${lang}`,
        name: { runs: [{ text: lang }] },
        languageCode: lang,
      }));
      const player = {
        ...(captionTracks.length ? { captions: { playerCaptionsTracklistRenderer: { captionTracks } } } : {}),
        videoDetails: { videoId: id, title: v.title },
      };
      return new Response(
        `<html><head><title>${v.title} - YouTube</title></head><body><script>var ytInitialPlayerResponse = ${JSON.stringify(
          player,
        ).replace(/\\\\u0026/g, "\\u0026")};</script></body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    }
    if (url.pathname === "/api/timedtext") {
      const v = videos[url.searchParams.get("v") ?? ""];
      const track = v?.tracks[url.searchParams.get("lang") ?? ""];
      if (!track || url.searchParams.get("fmt") !== "json3") return new Response("", { status: 404 });
      return new Response(
        JSON.stringify({ events: track.map(([t, text]) => ({ tStartMs: t, dDurationMs: 5000, segs: [{ utf8: text }] })) }),
        { headers: { "content-type": "application/json" } },
      );
    }
    if (url.pathname === "/feeds/videos.xml" && url.searchParams.get("playlist_id") === "PLacme") {
      const entries = Object.keys(videos).map((id) => `<entry><yt:videoId>${id}</yt:videoId><title>${videos[id]!.title}</title></entry>`);
      return new Response(`<?xml version="1.0"?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015">${entries.join("")}</feed>`, {
        headers: { "content-type": "application/atom+xml" },
      });
    }
    return new Response("not found", { status: 404 });
  }
  return { handle };
}
