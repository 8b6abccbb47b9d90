// The images waiting to go with the next message: each is uploaded as soon as it is added
// (signing the visitor in first when needed), so sending only names the stored paths.
import { useState } from "react";
import { useToast } from "../../components/ui";
import { uploadChatImage } from "../../data/chats/chat-image-upload";
import { AppError } from "../../lib/errors";
import type { PendingImage } from "./Composer";

export function useChatImages(ensureVisitor: () => Promise<string>) {
  const toast = useToast();
  const [images, setImages] = useState<PendingImage[]>([]);
  const mark = (ids: string[], patch: Partial<PendingImage>) => setImages((list) => list.map((i) => (ids.includes(i.id) ? { ...i, ...patch } : i)));

  async function add(files: File[]) {
    const added = files.map((file) => ({ id: crypto.randomUUID(), file, preview: URL.createObjectURL(file), status: "uploading" as const }));
    setImages((list) => [...list, ...added]);
    let visitorId: string;
    try {
      visitorId = await ensureVisitor();
    } catch (err) {
      mark(added.map((a) => a.id), { status: "failed" });
      toast.show(err instanceof AppError && err.code === "sign_in_rate_limited" ? "chat.error.busy" : "chat.images.failed", "error");
      return;
    }
    await Promise.all(
      added.map(async (img) => {
        try {
          const path = await uploadChatImage(visitorId, img.file);
          mark([img.id], { status: "ready", path });
        } catch {
          mark([img.id], { status: "failed" });
          toast.show("chat.images.failed", "error");
        }
      }),
    );
  }

  function remove(id: string) {
    setImages((list) => {
      const gone = list.find((i) => i.id === id);
      if (gone) URL.revokeObjectURL(gone.preview);
      return list.filter((i) => i.id !== id);
    });
  }

  /** The stored paths of the ready images; the tray is emptied for the next message. */
  function take(): string[] {
    const paths = images.flatMap((i) => (i.status === "ready" && i.path ? [i.path] : []));
    images.forEach((i) => URL.revokeObjectURL(i.preview));
    setImages([]);
    return paths;
  }

  return { images, add, remove, take };
}
