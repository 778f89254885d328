import type { Theme } from '../theme';

export type SyntaxRole = keyof Theme['syntax'];

export interface Segment {
  text: string;
  role?: SyntaxRole;
}

/** A code block as lines of coloured segments. */
export type HighlightedCode = Segment[][];

export interface Highlighter {
  /** Undefined when the language is unknown (and cannot be guessed from the code). */
  highlight(code: string, language: string | undefined): HighlightedCode | undefined;
}

/**
 * Shorter code is not guessed at: a guess runs every grammar over it (and compiles all of them
 * the first time), and a fence whose language has not streamed in yet is empty.
 */
const MIN_GUESSED = 40;

/** highlight.js scopes → theme roles. */
const ROLE_OF_SCOPE: Record<string, SyntaxRole> = {
  keyword: 'keyword',
  'selector-tag': 'keyword',
  name: 'keyword',
  literal: 'number',
  number: 'number',
  symbol: 'number',
  string: 'string',
  regexp: 'string',
  'template-tag': 'string',
  addition: 'string',
  comment: 'comment',
  quote: 'comment',
  doc: 'comment',
  deletion: 'attr',
  title: 'title',
  section: 'title',
  built_in: 'type',
  type: 'type',
  class: 'type',
  attr: 'attr',
  attribute: 'attr',
  variable: 'attr',
  'template-variable': 'attr',
  property: 'attr',
  params: 'attr',
  meta: 'meta',
  tag: 'meta',
  'selector-id': 'meta',
  'selector-class': 'meta',
  bullet: 'meta',
  link: 'meta',
};

interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  properties?: { className?: unknown };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };

/** The highlighter over lowlight's common languages (loaded on demand: ~40 grammars). */
export async function loadHighlighter(): Promise<Highlighter> {
  const { common, createLowlight } = await import('lowlight');
  const lowlight = createLowlight(common);
  return {
    highlight(code, language) {
      try {
        const name = language?.toLowerCase();
        let tree: { children: HastNode[] };
        if (name && lowlight.registered(name)) tree = lowlight.highlight(name, code) as never;
        else if (!name && code.trim().length >= MIN_GUESSED && code.length < 20_000) {
          tree = lowlight.highlightAuto(code) as never;
        } else return undefined;
        return toLines(tree.children);
      } catch {
        return undefined;
      }
    },
  };
}

function toLines(nodes: HastNode[]): HighlightedCode {
  const lines: HighlightedCode = [[]];
  const visit = (node: HastNode, role: SyntaxRole | undefined) => {
    if (node.type === 'text') {
      const pieces = (node as HastText).value.split('\n');
      pieces.forEach((piece, index) => {
        if (index > 0) lines.push([]);
        if (piece !== '') lines.at(-1)!.push(role ? { text: piece, role } : { text: piece });
      });
      return;
    }
    if (node.type === 'element') {
      const element = node as HastElement;
      const classes = Array.isArray(element.properties?.className)
        ? (element.properties.className as string[])
        : [];
      let next = role;
      for (const name of classes) {
        const scope = name
          .replace(/^hljs-/, '')
          .split('.')[0]!
          .replace(/_+$/, '');
        if (ROLE_OF_SCOPE[scope]) next = ROLE_OF_SCOPE[scope];
      }
      for (const child of element.children) visit(child, next);
      return;
    }
    for (const child of (node as { children?: HastNode[] }).children ?? []) visit(child, role);
  };
  for (const node of nodes) visit(node, undefined);
  return lines;
}
