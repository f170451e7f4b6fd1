import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { readTheme } from './theme';
import './globals.css';

export const metadata: Metadata = { title: 'GPU Reservations Console', description: 'Reserve, release and reclaim GPU capacity.' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, the not-found page included: a page prerendered at build
  // time would carry no nonce, and the Content-Security-Policy (proxy.ts) would block its scripts.
  await connection();
  // The theme the cookie asks for, in the server render (app/theme.ts): no flash, no script.
  const theme = await readTheme();
  return (
    <html lang="en" {...(theme !== 'system' && { 'data-theme': theme })}>
      <body className="min-h-screen bg-surface-2 text-ink antialiased">{children}</body>
    </html>
  );
}
