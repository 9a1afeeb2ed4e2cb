// Reading the protocol's view and event dicts: tolerant field access (documented names first, a few aliases,
// unknown fields ignored as docs/protocol.md asks) and card entries.

export const pick = (obj, ...keys) => {
  if (!obj || typeof obj !== "object") return undefined;
  for (const key of keys) if (obj[key] !== undefined && obj[key] !== null) return obj[key];
  return undefined;
};
export const int = (value, fallback = 0) => (Number.isFinite(Number(value)) ? Math.trunc(Number(value)) : fallback);
export const asArray = (value) => (Array.isArray(value) ? value : []);

/** A card entry of the view -> {code: "Ah"|null, up: boolean}. `up` = face up for everyone (stud upcards). */
export function normalizeCard(entry, defaultUp) {
  if (entry === null || entry === undefined) return { code: null, up: false };
  if (typeof entry === "string") {
    const hidden = entry === "" || entry === "??" || entry === "XX" || entry === "xx";
    return { code: hidden ? null : entry, up: defaultUp };
  }
  const code = pick(entry, "card", "code", "c");
  const upFlag = pick(entry, "up", "face_up", "faceUp", "public");
  const hiddenCode = code === undefined || code === "??" || code === "";
  return { code: hiddenCode ? null : code, up: upFlag === undefined ? defaultUp : Boolean(upFlag) };
}
