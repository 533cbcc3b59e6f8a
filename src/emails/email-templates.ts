import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';

export const EMAIL_TEMPLATES = ['order-confirmation', 'ticket', 'order-cancelled', 'order-refunded', 'waitlist-offer'] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

export function isEmailTemplate(value: string): value is EmailTemplate {
  return (EMAIL_TEMPLATES as readonly string[]).includes(value);
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const BUILT_IN_DIR = join(__dirname, 'templates');

interface Compiled {
  subject: HandlebarsTemplateDelegate;
  text: HandlebarsTemplateDelegate;
  html: HandlebarsTemplateDelegate;
}

/**
 * The email templates: `{name}.html` and `{name}.txt` (whose first line is `Subject: ...`), read
 * from EMAIL_TEMPLATES_DIR when it has a file of that name, else the built-in ones. Handlebars
 * escapes every value in the HTML part; the text part and the subject are plain text (no
 * escaping), and the subject is kept to one line so that a name cannot add a header.
 */
export class EmailTemplates {
  private readonly compiled = new Map<EmailTemplate, Compiled>();

  constructor(private readonly overrideDir: string | null) {}

  render(name: EmailTemplate, values: object): RenderedEmail {
    const templates = this.load(name);
    return {
      subject: templates
        .subject(values)
        .replace(/[\r\n]+/g, ' ')
        .trim(),
      text: templates.text(values),
      html: templates.html(values),
    };
  }

  private load(name: EmailTemplate): Compiled {
    const cached = this.compiled.get(name);
    if (cached) return cached;
    const text = this.read(`${name}.txt`);
    const match = /^Subject:[ \t]*(.*)\r?\n(?:\r?\n)?/.exec(text);
    if (!match) throw new Error(`Email template ${name}.txt must start with a "Subject:" line`);
    const compiled: Compiled = {
      subject: Handlebars.compile(match[1], { noEscape: true, strict: false }),
      text: Handlebars.compile(text.slice(match[0].length), { noEscape: true }),
      html: Handlebars.compile(this.read(`${name}.html`)),
    };
    this.compiled.set(name, compiled);
    return compiled;
  }

  private read(file: string): string {
    if (this.overrideDir) {
      const override = join(this.overrideDir, file);
      if (existsSync(override)) return readFileSync(override, 'utf8');
    }
    return readFileSync(join(BUILT_IN_DIR, file), 'utf8');
  }
}
