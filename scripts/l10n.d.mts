/** Types of scripts/l10n.mjs, for the test that checks the bundle is current. */
export const BUNDLE_PATH: string;
export function bundleText(): string;
