import { describe, expect, it } from 'vitest';
import { AmbiguousMask, unmaskUnits } from '../../src/domain/memory-unmask.js';
import { redactSecrets } from '../../src/shared/redact.js';

const A = 'sk-proj-Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
const B = 'sk-proj-Bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
const PEM = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACBVZXJ5U2VjcmV0S2V5TWF0ZXJpYWxIZXJlAAAAAAAAAAAAAAAAAAAAAA==\n-----END OPENSSH PRIVATE KEY-----`;

describe('unmaskUnits', () => {
  it('gives back units as sent when nothing was masked', () => {
    expect(unmaskUnits(['a', 'b'], ['a', 'c'], redactSecrets)).toEqual(['a', 'b']);
  });

  it('restores a masked entry left as shown, and a masked line inside an edited entry', () => {
    const originals = [`key ${A}`, `line one\ntoken ${B}`];
    const shown = originals.map(redactSecrets);
    expect(shown.join()).not.toContain('Aaaa');
    const posted = [shown[0]!, shown[1]!.replace('line one', 'line two'), 'new'];
    expect(unmaskUnits(posted, originals, redactSecrets)).toEqual([`key ${A}`, `line two\ntoken ${B}`, 'new']);
  });

  it('restores a multi-line PEM block as a paragraph of an edited text', () => {
    const original = `Intro\n\n${PEM}\n\nOutro`;
    const shown = redactSecrets(original);
    expect(shown).not.toContain('b3BlbnNz');
    expect(unmaskUnits([shown.replace('Outro', 'The end')], [original], redactSecrets)).toEqual([`Intro\n\n${PEM}\n\nThe end`]);
  });

  it('a mask typed fresh stays text; one that stands for two originals is refused', () => {
    expect(unmaskUnits(['api_key = ***'], ['unrelated'], redactSecrets)).toEqual(['api_key = ***']);
    const originals = [`one\nOPENAI_API_KEY=${A}`, `two\nOPENAI_API_KEY=${B}`];
    const sameMask = redactSecrets(`OPENAI_API_KEY=${A}`);
    expect(sameMask).toBe(redactSecrets(`OPENAI_API_KEY=${B}`));
    expect(() => unmaskUnits([`three\n${sameMask}`], originals, redactSecrets)).toThrow(AmbiguousMask);
  });
});
