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
import { enPages } from '@flashbulb/shared/i18n/en-pages';
import { documentHtml, safeHtml, jsonForScript, trusted, type Html } from './page.ts';

const TEXT = enPages.kioskEntry;

export interface KioskEntryPage {
  eventTitle: string;
  config: KioskEntryConfig;
  /** '' on the hosted page (same origin); the public URL in the downloaded file. */
  origin: string;
  nonce: string | null;
}

const STYLE = `html,body{margin:0;height:100%;background:#101418;color:#f4f6f8;font-family:system-ui,sans-serif;
-webkit-user-select:none;user-select:none;-webkit-touch-callout:none;touch-action:manipulation}
main{min-height:100%;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:32px;padding:32px;box-sizing:border-box;text-align:center}
h1{font-size:clamp(2rem,5vw,3.5rem);margin:0}p{font-size:1.6rem;margin:0}
form{display:flex;flex-direction:column;gap:16px;width:min(640px,90vw)}
input{font-size:2rem;min-height:72px;padding:0 20px;border-radius:14px;border:2px solid #5b6b7b;background:#1d252d;color:#fff;text-align:center;-webkit-user-select:text;user-select:text}
button{font-size:1.6rem;min-height:72px;min-width:48px;border-radius:14px;border:0;background:#2f80ed;color:#fff;padding:0 28px;cursor:pointer}
button.secondary{background:#3b4652}#message{min-height:2.2rem;font-size:1.8rem}
#message.error{color:#ff8a80}#message.ok{color:#9be79b}video{width:min(640px,90vw);border-radius:14px;background:#000}
[hidden]{display:none!important}`;

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
document.addEventListener('click',function(ev){if(ev.target===document.body||ev.target.tagName==='MAIN')input.focus();});
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
 * The kiosk entry page (albums spec §2.3): a password-style input for keyboard-wedge scanners
 * (Enter submits), the card check, the redirect after 500 ms with the kiosk parameters, "Invalid
 * card code." otherwise, and a camera QR scan (BarcodeDetector) where the browser has one. No
 * framework: it is also downloaded as one standalone file for kiosks that load a local file.
 */
export const renderKioskEntryPage = (page: KioskEntryPage): Html => {
  // The redirect with an attendee placeholder: the script only fills in the checked uid.
  const placeholder = 'ATTENDEE_UID_PLACEHOLDER';
  const settings = {
    checkUrl: `${page.origin}${API_BASE}/attendee/check-card`,
    key: page.config.privateKey,
    // The card check is the kiosk's: its private key with the event's display token of the link.
    display: page.config.displayToken ?? null,
    redirect: kioskRedirectUrl(page.origin || '', page.config, placeholder),
    placeholder,
    delay: KIOSK_REDIRECT_DELAY_MS,
    storageKeys: KIOSK_LOCAL_STORAGE_KEYS,
    text: {
      invalid: TEXT.invalid,
      checking: TEXT.checking,
      welcome: TEXT.welcome,
      offline: TEXT.offline,
      noCamera: TEXT.noCamera,
    },
  };
  const nonce = page.nonce ? safeHtml` nonce="${page.nonce}"` : '';
  return documentHtml({
    viewport: 'width=device-width,initial-scale=1,maximum-scale=1,user-scalable=no',
    head: safeHtml`<meta name="referrer" content="no-referrer">
<title>${fillText(TEXT.title, { event: page.eventTitle })}</title>`,
    style: STYLE,
    nonce: page.nonce,
    body: safeHtml`<main>
<h1>${page.eventTitle}</h1>
<p>${TEXT.prompt}</p>
<form id="scan-form" autocomplete="off">
<label for="card" hidden>${TEXT.cardLabel}</label>
<input id="card" name="card" type="password" inputmode="none" autocomplete="off" autofocus aria-label="${TEXT.cardLabel}">
<button type="submit">${TEXT.submit}</button>
<button type="button" class="secondary" id="camera" hidden>${TEXT.camera}</button>
</form>
<video id="video" playsinline muted hidden></video>
<div id="message" role="alert" aria-live="assertive"></div>
</main>
<script type="application/json" id="kiosk-settings">${trusted(jsonForScript(settings))}</script>
<script${nonce}>${trusted(SCRIPT)}</script>
`,
  });
};

/** What a kiosk link that opens nothing shows. */
export const kioskEntryNotFoundPage = (): Html =>
  documentHtml({
    viewport: 'width=device-width,initial-scale=1',
    head: safeHtml`<title>${TEXT.notFoundDocumentTitle}</title>`,
    style: 'body{font-family:system-ui,sans-serif;text-align:center;padding:48px}',
    body: safeHtml`<h1>${TEXT.notFoundTitle}</h1>
<p>${TEXT.notFoundText}</p>`,
  });
