import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmailTemplates } from './email-templates';

const values = {
  order: { id: 7, purchaserName: 'Eve <script>alert(1)</script>\r\nBcc: victim@example.org', status: 'cancelled' },
  eventTitles: 'Jazz & "Blues"\nNight',
  total: '0.00 USD',
  holderName: 'Eve',
  tickets: [],
};

describe('EmailTemplates', () => {
  it('escapes values in the HTML part and keeps the subject to one line', () => {
    const rendered = new EmailTemplates(null).render('order-cancelled', values);
    expect(rendered.html).toContain('Eve &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(rendered.html).not.toContain('<script>');
    expect(rendered.html).toContain('Jazz &amp; &quot;Blues&quot;');
    expect(rendered.subject).toBe('Order #7 cancelled: Jazz & "Blues" Night');
    expect(rendered.text).toContain('Hello Eve <script>alert(1)</script>');
  });

  it('takes a template from the configuration folder when it has one', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cal-templates-'));
    writeFileSync(join(folder, 'order-cancelled.html'), '<p>Custom {{order.purchaserName}}</p>');
    const rendered = new EmailTemplates(folder).render('order-cancelled', values);
    expect(rendered.html).toBe('<p>Custom Eve &lt;script&gt;alert(1)&lt;/script&gt;\r\nBcc: victim@example.org</p>');
    expect(rendered.subject).toMatch(/^Order #7 cancelled/);
  });
});
