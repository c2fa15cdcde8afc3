/** The product's own help pages (spec: /helps), opened from the top bar. */
export const HELP_URL = '/helps';
