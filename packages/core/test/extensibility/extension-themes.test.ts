import { describe, expect, it } from 'vitest';
import { parseGeminiManifest } from '../../src/extensions/manifest';

/** Issue R: a Gemini CLI extension's `themes` reach the UI as written. */
describe('extension themes', () => {
  it("keeps the manifest's theme objects (Gemini CLI's themes-example manifest)", () => {
    const text = JSON.stringify({
      name: 'themes-example',
      version: '1.0.0',
      themes: [{ name: 'My-Awesome-Theme', type: 'custom', text: { primary: '#FF00FF' } }, 'not a theme'],
    });
    const parsed = parseGeminiManifest(text, '/e/gemini-extension.json');
    expect(parsed.ok && parsed.value.themes).toEqual([
      { name: 'My-Awesome-Theme', type: 'custom', text: { primary: '#FF00FF' } },
    ]);
  });
});
