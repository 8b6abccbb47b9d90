import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";
import { cleanup, configure } from "@testing-library/react";

// Lazy screens and locale chunks load asynchronously; a busy machine needs more than 1 s (first import of a screen is transformed on demand).
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  document.cookie.split(";").forEach((c) => {
    const name = c.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  });
  localStorage.clear();
  sessionStorage.clear();
});
