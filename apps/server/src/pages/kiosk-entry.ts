import { runInNewContext } from 'node:vm';
import {
  API_BASE,
  KIOSK_LOCAL_STORAGE_KEYS,
  KIOSK_REDIRECT_DELAY_MS,
  kioskCardCode,
  kioskRedirectUrl,
  type KioskEntryConfig,
} from '@flashbulb/shared';
import { fillText } from '@flashbulb/shared/i18n/format';
import {
  DEFAULT_GUEST_LANGUAGE,
  GUEST_LANGUAGES,
  LANGUAGE_NAMES,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import { readableAccent } from '@flashbulb/shared/rules/accent';
import { documentHtml, safeHtml, jsonForScript, trusted, type Html } from './page.ts';

/** The page's texts in the kiosk's language (the event's, or the one its switcher chose). */
const textsOf = (language: GuestLanguage) => sharedTexts(language).pages.kioskEntry;

export interface KioskEntryPage {
  eventTitle: string;
  /** The event's logo (`logo_full_path`): shown above its name when it is an image address. */
  logo?: string | null;
  /** The event's accent colour (`#rrggbb`, guest pages' `guestAccentColor`), or '' for the default. */
  accent?: string;
  config: KioskEntryConfig;
  /** '' on the hosted page (same origin); the public URL in the downloaded file. */
  origin: string;
  nonce: string | null;
  /** The page's language: the link's `lang` (its switcher), else the event's. */
  language?: GuestLanguage;
  /** Whether the link chose it (`lang`): the guest's album then opens in it too. */
  languageChosen?: boolean;
  /** The page's own link (path and query without `lang`): the switcher's links add theirs. */
  selfUrl?: string;
}

/** The kiosk's dark screen (the guest kiosk's colours), sized by the screen: 1080×1920 or 1920×1080. */
const style = (accent: { accent: string; onAccent: string }) => `
html,body{margin:0;height:100%;background:#0e0f12;color:#f3f4f6;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
-webkit-user-select:none;user-select:none;-webkit-touch-callout:none;touch-action:manipulation}
main{--accent:${accent.accent};--on-accent:${accent.onAccent};min-height:100%;display:flex;flex-direction:column;align-items:center;
justify-content:center;gap:clamp(24px,4vmin,64px);padding:clamp(24px,6vmin,96px);box-sizing:border-box;text-align:center}
.brand{display:flex;flex-direction:column;align-items:center;gap:clamp(16px,3vmin,40px)}
.logo{display:block;width:min(56vw,520px);height:auto;max-height:22vmin;object-fit:contain}
h1{font-size:clamp(2.25rem,7vmin,6.5rem);line-height:1.08;margin:0;max-width:22ch;overflow-wrap:anywhere;letter-spacing:-0.01em}
p{margin:0}
button{font:inherit;font-weight:600;font-size:clamp(1.25rem,3vmin,2.25rem);min-height:max(72px,8vmin);min-width:72px;border-radius:999px;border:0;
background:#262932;color:#f3f4f6;padding:0 1.2em;cursor:pointer}
button:focus-visible,input:focus-visible{outline:4px solid #fcd34d;outline-offset:3px}
#tap{font-size:clamp(1.75rem,5vmin,4rem);min-height:max(112px,13vmin);padding:0 1.1em;background:var(--accent);color:var(--on-accent);
font-weight:700;animation:pulse 2.6s ease-in-out infinite}
@keyframes pulse{0%,100%{box-shadow:0 0 0 0 color-mix(in srgb,var(--accent) 60%,transparent)}
60%{box-shadow:0 0 0 clamp(12px,2.4vmin,28px) color-mix(in srgb,var(--accent) 0%,transparent)}}
@media (prefers-reduced-motion:reduce){#tap{animation:none}}
.hint{font-size:clamp(1.25rem,3.2vmin,2.5rem);color:#b4b8c2}
form{display:flex;flex-direction:column;gap:clamp(16px,2.4vmin,32px);width:min(760px,88vw)}
form label{font-size:clamp(1.25rem,3.2vmin,2.5rem);color:#b4b8c2}
input{font-size:clamp(2rem,5vmin,3.5rem);min-height:max(88px,10vmin);padding:0 20px;border-radius:20px;border:2px solid #3a3e48;background:#1a1c21;
color:#fff;text-align:center;letter-spacing:.12em;box-sizing:border-box;width:100%;-webkit-user-select:text;user-select:text}
button[type=submit]{background:var(--accent);color:var(--on-accent)}
main.attract form>:not(input){display:none}
main.attract input{position:absolute;left:0;bottom:0;width:1px;height:1px;min-height:0;padding:0;border:0;opacity:0}
main.entry #tap,main.entry .hint{display:none}
#message{min-height:2.4rem;font-size:clamp(1.5rem,3.6vmin,2.75rem)}
#message.error{color:#ff8a80}#message.ok{color:#9be79b}video{width:min(760px,88vw);border-radius:20px;background:#000}
[hidden]{display:none!important}
.langs{position:fixed;top:clamp(12px,2vmin,32px);inset-inline-end:clamp(12px,2vmin,32px);display:flex;flex-wrap:wrap;justify-content:flex-end;
gap:clamp(6px,1vmin,14px);max-width:90vw}
.langs a{display:inline-flex;align-items:center;min-height:max(48px,5vmin);padding:0 .9em;border-radius:999px;background:#1f2229;color:#d7dae1;
text-decoration:none;font-size:clamp(1rem,2vmin,1.6rem)}
.langs a[aria-current=true]{background:var(--accent);color:var(--on-accent);font-weight:700}
.langs a:focus-visible{outline:4px solid #fcd34d;outline-offset:3px}`;

/** An idle code entry goes back to the attract screen after this long. */
const ENTRY_IDLE_MS = 45_000;

/** The event's logo as an image address the page may load: http(s), a data image or a local path. */
const logoSource = (path: string | null): string | null => {
  const value = path?.trim() ?? '';
  if (/^https?:\/\/[^\s"]+$/i.test(value) || /^data:image\//i.test(value)) return value;
  if (/^\/[^/\s"]/.test(value)) return value;
  return null;
};

/** The origin of an http(s) logo, for the page's image policy (null: same origin or a data image). */
export const logoOrigin = (path: string | null): string | null => {
  const source = logoSource(path);
  if (!source || !/^https?:/i.test(source)) return null;
  try {
    return new URL(source).origin;
  } catch {
    return null;
  }
};

/**
 * The card-code reader of the page's script: the shared `kioskCardCode` itself, written out as its
 * own source (it is self-contained: it uses nothing but the language's built-ins), so the page
 * accepts and refuses exactly what the shared rule does — no second copy to drift. Chosen over a
 * bundle made by a build step because the page is also downloaded as one standalone file and the
 * server must write it without a web build or a bundler at run time; the test of this page runs
 * the served script on a table of scans against `kioskCardCode`, which also catches the function
 * ever reaching outside itself.
 */
const CARD_CODE_SOURCE = kioskCardCode.toString();
if (/<\/script|<!--/i.test(CARD_CODE_SOURCE))
  throw new Error('kioskCardCode cannot be written into a script element');
// The source as this process runs it (a loader may have transformed it): checked once, alone in an
// empty context, so a reader that leans on anything outside itself stops the server at start
// instead of leaving kiosks with a page that cannot read a card.
const isolated = runInNewContext(`(${CARD_CODE_SOURCE})`, {}) as (scan: string) => string | null;
for (const scan of ['https://x.example/?attId=ab12-cd34&x=1', 'a=b=AB-CD 12', '%', 'ABC', ''])
  if (isolated(scan) !== kioskCardCode(scan))
    throw new Error('kioskCardCode is not self-contained: the kiosk entry page cannot run it');

/** The page's script: clears what the last guest left, reads a scan, checks it, redirects. */
const SCRIPT = `
(function(){
var s=JSON.parse(document.getElementById('kiosk-settings').textContent);
try{for(var i=0;i<s.storageKeys.length;i++)localStorage.removeItem(s.storageKeys[i]);sessionStorage.clear();}catch(err){}
var form=document.getElementById('scan-form'),input=document.getElementById('card'),msg=document.getElementById('message');
var busy=false;
function say(text,kind){msg.textContent=text;msg.className=kind||'';}
var code=${CARD_CODE_SOURCE};
function check(scan){if(busy)return;var c=code(String(scan));input.value='';if(!c){say(s.text.invalid,'error');return;}
busy=true;say(s.text.checking);
fetch(s.checkUrl,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(s.display?{key_type:'private',key_value:s.key,display:s.display,card_code:c}:{key_type:'private',key_value:s.key,card_code:c})})
.then(function(r){return r.json();}).then(function(b){
if(b&&b.status==='ok'&&b.result.valid){say(s.text.welcome,'ok');var to=s.redirect.replace(s.placeholder,encodeURIComponent(b.result.attendee_uid));
setTimeout(function(){location.assign(to);},s.delay);return;}
busy=false;say(s.text.invalid,'error');input.focus();})
.catch(function(){busy=false;say(s.text.offline,'error');input.focus();});}
form.addEventListener('submit',function(ev){ev.preventDefault();check(input.value);});
var main=document.getElementById('kiosk-main'),idle=null;
function toAttract(){if(idle)clearTimeout(idle);idle=null;main.className='attract';input.inputMode='none';input.value='';input.focus();}
function restartIdle(){if(idle)clearTimeout(idle);idle=setTimeout(toAttract,s.entryIdleMs);}
function toEntry(){main.className='entry';input.inputMode='text';input.focus();restartIdle();}
document.getElementById('back').addEventListener('click',function(ev){ev.stopPropagation();toAttract();});
input.addEventListener('input',function(){if(main.className==='entry')restartIdle();});
document.addEventListener('click',function(ev){if(ev.target&&ev.target.closest&&ev.target.closest('.langs'))return;
if(main.className==='attract'){toEntry();return;}
if(ev.target===document.body||ev.target.tagName==='MAIN')input.focus();});
document.addEventListener('contextmenu',function(ev){ev.preventDefault();});
var cam=document.getElementById('camera'),video=document.getElementById('video');
if('BarcodeDetector' in window&&navigator.mediaDevices&&navigator.mediaDevices.getUserMedia){cam.hidden=false;
cam.addEventListener('click',function(){var det=new window.BarcodeDetector({formats:['qr_code']});
navigator.mediaDevices.getUserMedia({video:{facingMode:'user'}}).then(function(stream){video.srcObject=stream;video.hidden=false;
video.addEventListener('loadedmetadata',function(){video.play();});
var stop=function(){stream.getTracks().forEach(function(t){t.stop();});video.hidden=true;};
var tick=function(){if(video.hidden)return;det.detect(video).then(function(found){if(found.length){stop();check(found[0].rawValue);}else setTimeout(tick,300);})
.catch(function(){setTimeout(tick,300);});};tick();setTimeout(stop,60000);})
.catch(function(){say(s.text.noCamera,'error');});});}
})();
`;

/**
 * The kiosk entry page (albums spec §2.3), which is also the kiosk's attract screen: the event's
 * logo and name large, "Tap to find your photos" (a tap shows the code entry: the code typed,
 * the camera scan, Back; 45 s idle returns), "or scan your card" — a password-style input for keyboard-wedge scanners
 * (Enter submits), the card check, the redirect after 500 ms with the kiosk parameters, "Invalid
 * card code." otherwise, and a camera QR scan (BarcodeDetector) where the browser has one. No
 * framework: it is also downloaded as one standalone file for kiosks that load a local file.
 */
export const renderKioskEntryPage = (page: KioskEntryPage): Html => {
  const language = page.language ?? DEFAULT_GUEST_LANGUAGE;
  const TEXT = textsOf(language);
  // The redirect with an attendee placeholder: the script only fills in the checked uid.
  const placeholder = 'ATTENDEE_UID_PLACEHOLDER';
  const redirect = kioskRedirectUrl(page.origin || '', page.config, placeholder);
  const settings = {
    checkUrl: `${page.origin}${API_BASE}/attendee/check-card`,
    key: page.config.privateKey,
    // The card check is the kiosk's: its private key with the event's display token of the link.
    display: page.config.displayToken ?? null,
    // A language the guest chose on this screen carries on into their album.
    redirect: page.languageChosen
      ? `${redirect}${redirect.includes('?') ? '&' : '?'}lang=${language}`
      : redirect,
    placeholder,
    delay: KIOSK_REDIRECT_DELAY_MS,
    storageKeys: KIOSK_LOCAL_STORAGE_KEYS,
    entryIdleMs: ENTRY_IDLE_MS,
    text: {
      invalid: TEXT.invalid,
      checking: TEXT.checking,
      welcome: TEXT.welcome,
      offline: TEXT.offline,
      noCamera: TEXT.noCamera,
    },
  };
  const nonce = page.nonce ? safeHtml` nonce="${page.nonce}"` : '';
  const logo = logoSource(page.logo ?? null);
  const accent = /^#[0-9a-f]{6}$/i.test(page.accent ?? '')
    ? readableAccent(page.accent!)
    : { accent: '#8da2fb', onAccent: '#0b1020' };
  const self = page.selfUrl ?? '';
  const switcher = self
    ? safeHtml`<nav class="langs" aria-label="${TEXT.language}">${GUEST_LANGUAGES.map(
        (code) =>
          safeHtml`<a href="${`${self}${self.includes('?') ? '&' : '?'}lang=${code}`}" lang="${code}" hreflang="${code}"${code === language ? safeHtml` aria-current="true"` : ''}>${LANGUAGE_NAMES[code]}</a>`,
      )}</nav>`
    : '';
  return documentHtml({
    language,
    viewport: 'width=device-width,initial-scale=1,maximum-scale=1,user-scalable=no',
    head: safeHtml`<meta name="referrer" content="no-referrer">
<title>${fillText(TEXT.title, { event: page.eventTitle })}</title>`,
    style: style(accent),
    nonce: page.nonce,
    body: safeHtml`<main id="kiosk-main" class="attract">
<div class="brand">
${logo ? safeHtml`<img class="logo" src="${logo}" alt="${fillText(TEXT.logoAlt, { event: page.eventTitle })}">` : ''}
<h1>${page.eventTitle}</h1>
</div>
<button type="button" id="tap">${TEXT.tap}</button>
<p class="hint">${TEXT.orScan}</p>
<form id="scan-form" autocomplete="off">
<label for="card">${TEXT.typeCode}</label>
<input id="card" name="card" type="password" inputmode="none" autocomplete="off" autofocus aria-label="${TEXT.cardLabel}">
<button type="submit">${TEXT.submit}</button>
<button type="button" id="camera" hidden>${TEXT.camera}</button>
<button type="button" id="back">${TEXT.back}</button>
</form>
<video id="video" playsinline muted hidden></video>
<div id="message" role="alert" aria-live="assertive"></div>
${switcher}
</main>
<script type="application/json" id="kiosk-settings">${trusted(jsonForScript(settings))}</script>
<script${nonce}>${trusted(SCRIPT)}</script>
`,
  });
};

/** What a kiosk link that opens nothing shows. */
export const kioskEntryNotFoundPage = (language: GuestLanguage = DEFAULT_GUEST_LANGUAGE): Html => {
  const TEXT = textsOf(language);
  return documentHtml({
    language,
    viewport: 'width=device-width,initial-scale=1',
    head: safeHtml`<title>${TEXT.notFoundDocumentTitle}</title>`,
    style: 'body{font-family:system-ui,sans-serif;text-align:center;padding:48px}',
    body: safeHtml`<h1>${TEXT.notFoundTitle}</h1>
<p>${TEXT.notFoundText}</p>`,
  });
};
