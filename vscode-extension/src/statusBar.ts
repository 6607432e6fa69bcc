// The status bar item (id beagle.status): idle, running with percentage, or paused. It follows
// the server's beagle/status notifications; a click opens the status quick pick.

import * as vscode from 'vscode';
import type { StatusPayload } from './protocol';
import { IDLE, statusView } from './statusText';

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(showStatusCommand: string) {
    this.item = vscode.window.createStatusBarItem('beagle.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'Beagle';
    this.item.command = showStatusCommand;
    this.item.text = IDLE.text;
    this.item.tooltip = IDLE.tooltip;
    this.item.show();
  }

  update(status: StatusPayload | null | undefined): void {
    const view = statusView(status);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
  }

  /** The server is not running: say so instead of a stale state. */
  stopped(reason: string): void {
    this.item.text = '$(error) Beagle';
    this.item.tooltip = reason;
  }

  dispose(): void {
    this.item.dispose();
  }
}
