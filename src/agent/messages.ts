/**
 * The OpenAI-format messages the agent works in (what the session transcript stores, plus the
 * system prompt). Providers translate to and from their own wire formats.
 */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  /** Reasoning/thinking text: kept on the assistant message, never in `content`. */
  reasoning?: string;
  /** A provider's own `reasoning_content`, when a transcript kept it apart (Hermes does). */
  reasoning_content?: string;
  /** OpenRouter's structured reasoning (signatures included), replayed to OpenRouter only. */
  reasoning_details?: unknown[];
}

/** A tool as the model sees it: a name, a description and JSON-schema parameters. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
