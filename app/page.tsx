export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-10">
      <h1 className="text-2xl font-semibold">GPU Reservations Console</h1>
      <p className="mt-4 text-slate-600">
        The public REST API lives under <code className="rounded bg-slate-200 px-1">/v1</code>. See the README for demo keys and examples.
      </p>
    </main>
  );
}
