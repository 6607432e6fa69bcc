import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The real `vscode` module exists only inside VS Code; wiring tests use a small fake.
    alias: { vscode: fileURLToPath(new URL('./test/fakeVscode.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
