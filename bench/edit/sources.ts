// Realistic source files for the edit benchmark: services, handlers and stores in five languages,
// built from per-entity templates. Entities share templates, so files contain the near-duplicate
// and exactly duplicated blocks that make edits ambiguous in real code.
import type { Rng } from './rng';

export interface Language {
  name: 'ts' | 'js' | 'py' | 'go' | 'java';
  extension: string;
  /** One indentation step of the language's usual style. */
  unit: string;
  comment: string;
}

export const LANGUAGES: Record<Language['name'], Language> = {
  ts: { name: 'ts', extension: 'ts', unit: '  ', comment: '//' },
  js: { name: 'js', extension: 'js', unit: '  ', comment: '//' },
  py: { name: 'py', extension: 'py', unit: '    ', comment: '#' },
  go: { name: 'go', extension: 'go', unit: '\t', comment: '//' },
  java: { name: 'java', extension: 'java', unit: '    ', comment: '//' },
};

interface Entity {
  /** PascalCase, camelCase, plural, numeric field (camelCase) and the same field in PascalCase. */
  E: string;
  e: string;
  plural: string;
  field: string;
  Field: string;
}

export const ENTITIES = [
  'User',
  'Order',
  'Invoice',
  'Product',
  'Session',
  'Payment',
  'Account',
  'Report',
  'Ticket',
  'Shipment',
  'Customer',
  'Project',
];
const FIELDS = ['total', 'quantity', 'balance', 'priority', 'weight', 'score', 'limit', 'retries'];

type Template = (x: Entity) => string;

const TS: Template[] = [
  ({
    E,
    plural,
  }) => `export async function fetch${E}(id: string, signal?: AbortSignal): Promise<${E} | null> {
  const response = await fetch(\`\${baseUrl}/${plural}/\${id}\`, { headers: authHeaders(), signal });
  if (response.status === 404) {
    return null;
  }
  if (!response.ok) {
    throw new Error(\`Request failed: \${response.status}\`);
  }
  const body = (await response.json()) as ApiResponse<${E}>;
  return body.data;
}`,
  ({ E, field }) => `export function validate${E}(input: ${E}Input): string[] {
  const errors: string[] = [];
  if (!input.name || input.name.trim() === '') {
    errors.push('name is required');
  }
  if (input.${field} !== undefined && input.${field} < 0) {
    errors.push("${field} must not be negative");
  }
  return errors;
}`,
  ({ E, e }) => `export class ${E}Store {
  private readonly items = new Map<string, ${E}>();

  constructor(private readonly logger: Logger) {}

  get(id: string): ${E} | undefined {
    const item = this.items.get(id);
    if (!item) {
      this.logger.warn(\`${e} \${id} not found\`);
      return undefined;
    }
    return item;
  }

  upsert(item: ${E}): void {
    this.items.set(item.id, { ...item, updatedAt: Date.now() });
    this.logger.info("saved ${e}\\n" + item.id);
  }
}`,
  ({ E, field }) => `export function summarize${E}s(items: ${E}[]): string {
  const total = items.reduce((sum, item) => sum + item.${field}, 0);
  const lines = items.map((item) => \`- \${item.name}: \${item.${field}}\`);
  return [\`${E}s (\${items.length})\`, ...lines, \`total: \${total}\`].join('\\n');
}`,
  ({ E, e }) => `export function ${e}Reducer(state: ${E}State, action: ${E}Action): ${E}State {
  switch (action.type) {
    case 'add':
      return { ...state, items: [...state.items, action.item] };
    case 'remove':
      return { ...state, items: state.items.filter((item) => item.id !== action.id) };
    default:
      return state;
  }
}`,
];

const JS: Template[] = [
  ({ E, e, field }) => `function render${E}Row(${e}) {
  const cells = [${e}.id, ${e}.name, ${e}.${field}].map((value) => \`<td>\${escapeHtml(String(value))}</td>\`);
  return \`<tr data-id="\${${e}.id}">\${cells.join('')}</tr>\`;
}`,
  ({ e, plural }) => `router.get('/${plural}/:id', async (req, res) => {
  try {
    const ${e} = await db.${plural}.findOne({ id: req.params.id });
    if (!${e}) {
      return res.status(404).json({ error: 'not found' });
    }
    res.json(${e});
  } catch (err) {
    console.error("failed to load ${e}:\\n", err);
    res.status(500).json({ error: 'internal error' });
  }
});`,
  ({ E, e, field }) => `async function sync${E}s(client, since) {
  const changed = await client.list('${e}', { since });
  for (const item of changed) {
    if (item.deleted) {
      await cache.delete(item.id);
      continue;
    }
    await cache.set(item.id, { ...item, ${field}: Number(item.${field}) || 0 });
  }
  return changed.length;
}`,
];

const PY: Template[] = [
  ({ E, e, plural }) => `def load_${e}(conn, ${e}_id):
    """Load one ${e} by id, or None when it does not exist."""
    row = conn.execute("SELECT * FROM ${plural} WHERE id = ?", (${e}_id,)).fetchone()
    if row is None:
        return None
    return ${E}.from_row(row)`,
  ({ E, e }) => `class ${E}Service:
    def __init__(self, repo, logger):
        self.repo = repo
        self.logger = logger

    def update(self, ${e}_id, changes):
        current = self.repo.get(${e}_id)
        if current is None:
            raise KeyError(f"unknown ${e}: {${e}_id}")
        for key, value in changes.items():
            setattr(current, key, value)
        self.logger.info("updated ${e} %s", ${e}_id)
        return self.repo.save(current)

    def delete(self, ${e}_id):
        if not self.repo.exists(${e}_id):
            return False
        self.repo.remove(${e}_id)
        return True`,
  ({ e, field }) => `def format_${e}_report(items):
    lines = [f"{item.name}\\t{item.${field}}" for item in items]
    total = sum(item.${field} for item in items)
    lines.append(f"total\\t{total}")
    return "\\n".join(lines)`,
  ({ E, e, field }) => `def parse_${e}(payload):
    if not isinstance(payload, dict):
        raise ValueError("expected an object")
    name = payload.get('name', '').strip()
    if not name:
        raise ValueError("name is required")
    return ${E}(name=name, ${field}=int(payload.get('${field}', 0)))`,
];

const GO: Template[] = [
  ({ E, e, plural }) => `func (s *Store) Get${E}(ctx context.Context, id string) (*${E}, error) {
	row := s.db.QueryRowContext(ctx, "SELECT id, name FROM ${plural} WHERE id = $1", id)
	var item ${E}
	if err := row.Scan(&item.ID, &item.Name); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return nil, fmt.Errorf("get ${e}: %w", err)
	}
	return &item, nil
}`,
  ({ E, e }) => `func (h *Handler) Create${E}(w http.ResponseWriter, r *http.Request) {
	var req Create${E}Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "invalid body", http.StatusBadRequest)
		return
	}
	item, err := h.store.Create${E}(r.Context(), req)
	if err != nil {
		h.log.Printf("create ${e}: %v\\n", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusCreated, item)
}`,
  ({ E, field, Field }) => `func validate${E}(item *${E}) error {
	if item.Name == "" {
		return errors.New("name is required")
	}
	if item.${Field} < 0 {
		return fmt.Errorf("${field} must not be negative, got %d", item.${Field})
	}
	return nil
}`,
];

const JAVA: Template[] = [
  ({ E }) => `    public ${E} find${E}(long id) {
        ${E} cached = cache.get(id);
        if (cached != null) {
            return cached;
        }
        ${E} loaded = repository.findById(id)
            .orElseThrow(() -> new NotFoundException("${E} " + id + " not found"));
        cache.put(id, loaded);
        return loaded;
    }`,
  ({ E }) => `    public List<${E}> list${E}s(int page, int size) {
        if (page < 0 || size <= 0) {
            throw new IllegalArgumentException("invalid page");
        }
        List<${E}> result = new ArrayList<>();
        for (${E} item : repository.findAll()) {
            if (item.isActive()) {
                result.add(item);
            }
        }
        return result.subList(Math.min(page * size, result.size()), Math.min((page + 1) * size, result.size()));
    }`,
  ({ E, e, field, Field }) => `    public void update${Field}(long id, int ${field}) {
        if (${field} < 0) {
            throw new IllegalArgumentException("${field} must not be negative");
        }
        ${E} ${e} = find${E}(id);
        ${e}.set${Field}(${field});
        repository.save(${e});
        log.info("updated {} for ${e} {}", "${field}", id);
    }`,
];

const TEMPLATES: Record<Language['name'], Template[]> = { ts: TS, js: JS, py: PY, go: GO, java: JAVA };

function header(language: Language, main: Entity): string {
  switch (language.name) {
    case 'ts':
      return `import type { ApiResponse, Logger } from './types';\nimport { authHeaders } from './auth';\n\nconst baseUrl = process.env.API_URL ?? 'http://localhost:8080';`;
    case 'js':
      return `'use strict';\n\nconst express = require('express');\nconst { db, cache, escapeHtml } = require('./deps');\n\nconst router = express.Router();`;
    case 'py':
      return `"""Data access and services for ${main.plural}."""\n\nimport logging\n\nfrom .models import ${main.E}\n\nlog = logging.getLogger(__name__)`;
    case 'go':
      return `package ${main.plural}\n\nimport (\n\t"context"\n\t"database/sql"\n\t"encoding/json"\n\t"errors"\n\t"fmt"\n\t"net/http"\n)`;
    case 'java':
      return `package com.example.${main.plural};\n\nimport java.util.ArrayList;\nimport java.util.List;\n\npublic class ${main.E}Service {\n    private final ${main.E}Repository repository;\n    private final Map<Long, ${main.E}> cache = new HashMap<>();`;
  }
}

function entity(name: string, rng: Rng): Entity {
  const field = rng.pick(FIELDS);
  return {
    E: name,
    e: name[0]!.toLowerCase() + name.slice(1),
    plural: `${name.toLowerCase()}s`,
    field,
    Field: field[0]!.toUpperCase() + field.slice(1),
  };
}

export interface SourceFile {
  language: Language;
  name: string;
  /** LF text ending with a newline. */
  text: string;
}

/** One file: a header, then two or three templates for each of three to five entities. */
export function generateSource(rng: Rng, language: Language, index: number): SourceFile {
  const names = rng.shuffle(ENTITIES).slice(0, rng.int(3, 5));
  const entities = names.map((name) => entity(name, rng));
  const templates = TEMPLATES[language.name];
  const parts = [header(language, entities[0]!)];
  for (const item of entities) {
    const chosen = rng
      .shuffle(templates.map((_, i) => i))
      .slice(0, rng.int(2, Math.min(3, templates.length)));
    for (const i of chosen.sort()) parts.push(templates[i]!(item));
  }
  let text = `${parts.join('\n\n')}\n`;
  if (language.name === 'java') text += '}\n';
  return { language, name: `${entities[0]!.e}-${index}.${language.extension}`, text };
}
