import { json, str, toolError } from './args.js';
import type { Tool } from './types.js';

const MAX_CHOICES = 4;

export const clarifyTool: Tool = {
  spec: {
    name: 'clarify',
    description:
      'Ask the user a question when the request is ambiguous or a decision is theirs to make, and wait for the answer. ' +
      `Offer up to ${MAX_CHOICES} choices (the user can always answer in their own words) or leave choices out for an open question. ` +
      'Do not use it for things you can find out yourself.',
    parameters: {
      type: 'object',
      properties: {
        question: { type: 'string', description: 'The question to ask the user' },
        choices: {
          type: 'array',
          items: { type: 'string' },
          maxItems: MAX_CHOICES,
          description: `Up to ${MAX_CHOICES} suggested answers; omit for an open-ended question`,
        },
      },
      required: ['question'],
    },
  },
  // The user answers one question at a time; nothing else runs while they think.
  interactive: true,
  async run(args, ctx) {
    const question = str(args.question)?.trim();
    if (!question) return toolError('question is required');
    if (args.choices !== undefined && args.choices !== null && !Array.isArray(args.choices)) return toolError('choices must be an array of strings');
    const choices = (Array.isArray(args.choices) ? args.choices : []).map((c) => str(c)?.trim() ?? '').filter((c) => c !== '');
    if (choices.length > MAX_CHOICES) return toolError(`At most ${MAX_CHOICES} choices; the user can always type their own answer`);
    const answer = await ctx.clarify(question, choices);
    if (answer === null) return json({ answer: null, note: 'The user did not answer in time; proceed with your best judgement.' });
    return json({ answer });
  },
};
