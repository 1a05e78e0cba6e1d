import { DEFAULT_GUEST_LANGUAGE, type GuestLanguage } from '@flashbulb/shared/i18n/languages';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import { documentHtml, safeHtml, type Html, textHtml } from './page.ts';

/** The unsubscribe link's pages: the question with its button, the confirmation, a bad link. */

/** The pages' texts in the reader's language (routes/unsubscribe.routes.ts picks it). */
const textsOf = (language: GuestLanguage) => sharedTexts(language).pages.unsubscribe;

const STYLE = `body{margin:0;background:#f6f6f4;color:#222;font-family:system-ui,sans-serif}
main{max-width:480px;margin:15vh auto 0;padding:24px;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem;margin:0 0 12px}p{line-height:1.5}
button{font:inherit;padding:12px 20px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer;min-height:44px}`;

const page = (title: string, body: Html, language: GuestLanguage): Html =>
  documentHtml({
    language,
    viewport: 'width=device-width,initial-scale=1',
    head: safeHtml`<meta name="robots" content="noindex"><title>${title}</title>`,
    style: STYLE,
    body: safeHtml`<main><h1>${title}</h1>${body}</main>`,
  });

/** Event and recipient in bold inside a sentence. */
const sentence = (template: string, input: { eventTitle: string; recipient: string }): Html =>
  safeHtml`<p>${textHtml(template, {
    event: safeHtml`<strong>${input.eventTitle}</strong>`,
    recipient: safeHtml`<strong>${input.recipient}</strong>`,
  })}</p>`;

/** `GET`: names the event and the address, with one button (a GET never unsubscribes). */
export const unsubscribeAskPage = (input: {
  eventTitle: string;
  recipient: string;
  /** Where the button posts (the same link, token included). */
  action: string;
  language?: GuestLanguage;
}): Html => {
  const language = input.language ?? DEFAULT_GUEST_LANGUAGE;
  const TEXT = textsOf(language);
  return page(
    TEXT.askTitle,
    safeHtml`${sentence(TEXT.ask, input)}<form method="post" action="${input.action}"><button type="submit">${TEXT.button}</button></form>`,
    language,
  );
};

/** `POST`: the unsubscribe is recorded. */
export const unsubscribeDonePage = (input: {
  eventTitle: string;
  recipient: string;
  language?: GuestLanguage;
}): Html => {
  const language = input.language ?? DEFAULT_GUEST_LANGUAGE;
  const TEXT = textsOf(language);
  return page(TEXT.doneTitle, sentence(TEXT.done, input), language);
};

/** A token this server did not sign. */
export const unsubscribeInvalidPage = (language: GuestLanguage = DEFAULT_GUEST_LANGUAGE): Html =>
  page(textsOf(language).invalidTitle, safeHtml`<p>${textsOf(language).invalidText}</p>`, language);
