// The panels as the commands open them: commands.ts calls these, resultsPanel.ts and
// diagramPanel.ts implement them. Its own module so that the commands and the panels do not
// import each other (the panels run commands through a callback, DiagramActions).

import type { ElementResults } from './protocol';

/** How commands.ts shows an element's results. */
export interface ResultsView {
  show(key: string, title: string, data: ElementResults): void;
}

/** How commands.ts opens diagrams. */
export interface DiagramView {
  showSeff(uri: string, seff: string): Promise<void>;
  showRepository(uri: string): Promise<void>;
}
