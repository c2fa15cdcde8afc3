/** External help document opened from the top bar (new tab). */
export const HELP_URL = 'https://faq.whatsapp.com/';
