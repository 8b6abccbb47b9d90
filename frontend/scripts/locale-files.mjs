// Which files are locale message files (src/i18n/messages/<locale>.json and
// src/i18n/messages/<area>/<locale>.json): the build compiles exactly these to ICU ASTs, and
// the browser has no message parser, so a message file this does not match would show its
// placeholders raw ("Image {n} of {count}"). Area folder names are camelCase (powerUps).
const LOCALE_FILE = /[\\/]src[\\/]i18n[\\/]messages[\\/](?:[A-Za-z0-9-]+[\\/])?[a-z]{2}\.json$/;

/** @param {string} id a module id or file path */
export function isLocaleMessagesFile(id) {
  return LOCALE_FILE.test(id);
}
