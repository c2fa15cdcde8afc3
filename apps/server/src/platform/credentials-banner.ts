/** The generated super-user credentials in a framed block, so they stand out among the log lines. */
export function credentialsBanner(email: string, password: string): string {
  const rows = [
    'Super user created. Save this password: it is shown only once.',
    '',
    `E-mail:   ${email}`,
    `Password: ${password}`,
  ];
  const width = Math.max(...rows.map((r) => r.length));
  const line = '═'.repeat(width + 2);
  return ['', `╔${line}╗`, ...rows.map((r) => `║ ${r.padEnd(width)} ║`), `╚${line}╝`, ''].join('\n');
}
