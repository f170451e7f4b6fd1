import { expect, test } from '../support/api';

// Every problem `type` the document names resolves, relative to the document's own URL, to a
// page of this app that says what the code means — signed out (docs/product.md §5 Errors).
test('each problem type in the served document is a page of this site, readable without signing in', async ({ request }) => {
  const doc = (await (await request.get('/v1/openapi.json')).json()) as {
    components: { schemas: Record<string, { properties?: { type?: { const?: string }; title?: { const?: string }; code?: { const?: string } } }> };
  };
  const problems = Object.values(doc.components.schemas).filter((s) => s.properties?.type?.const?.startsWith('/problems/'));
  expect(problems.length).toBeGreaterThan(20);
  for (const p of problems) {
    const url = new URL(p.properties!.type!.const!, new URL('/v1/openapi.json', 'http://site.invalid')).pathname;
    const page = await request.get(url, { maxRedirects: 0 });
    expect(page.status(), url).toBe(200);
    expect(page.headers()['content-type'], url).toContain('text/html');
    const html = await page.text();
    expect(html, url).toContain(p.properties!.title!.const!);
    expect(html, url).toContain(p.properties!.code!.const!);
  }
  expect((await request.get('/problems')).status()).toBe(200);
  expect((await request.get('/problems/no_such_code')).status()).toBe(404);
});
