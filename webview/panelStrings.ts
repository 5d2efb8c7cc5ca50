import { englishPanelStrings, PANEL_STRINGS_ATTRIBUTE, type PanelStrings } from '../src/contract/panelStrings';

/** The texts the host put on the panel's root, each in the user's language; English for any it left out. */
function readStrings(): PanelStrings {
  const strings: PanelStrings = { ...englishPanelStrings };
  let given: unknown;
  try {
    given = JSON.parse(document.getElementById('tandem-root')?.getAttribute(PANEL_STRINGS_ATTRIBUTE) ?? '{}');
  } catch {
    return strings;
  }
  if (typeof given !== 'object' || given === null) return strings;
  for (const key of Object.keys(strings) as (keyof PanelStrings)[]) {
    const text = (given as Record<string, unknown>)[key];
    if (typeof text === 'string') strings[key] = text;
  }
  return strings;
}

/** The panel's texts, read once: VS Code reloads the window when its display language changes. */
export const panelStrings: PanelStrings = readStrings();
