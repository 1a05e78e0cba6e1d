import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  API_BASE,
  INVALID_CARD_CODE,
  KIOSK_LOCAL_STORAGE_KEYS,
  KIOSK_REDIRECT_DELAY_MS,
  kioskEntryConfigFrom,
  kioskRedirectUrl,
  type KioskEntryConfig,
} from '@flashbulb/shared';
import type { Principal } from '../access/principal.ts';
import { escapeHtml } from '../lib/escape-html.ts';

const e = escapeHtml;

/** JSON safe inside a `<script>` element (no `</script>`, no HTML comment openers). */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

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
 * The kiosk entry page (albums spec §2.3): a password-style input for keyboard-wedge scanners
 * (Enter submits), the card check, the redirect after 500 ms with the kiosk parameters, "Invalid
 * card code." otherwise, and a camera QR scan (BarcodeDetector) where the browser has one. No
 * framework: it is also downloaded as one standalone file for kiosks that load a local file.
 */
export const renderKioskEntryPage = (page: KioskEntryPage): string => {
  const nonce = page.nonce ? ` nonce="${e(page.nonce)}"` : '';
  // The redirect with an attendee placeholder: the script only fills in the checked uid.
  const placeholder = 'ATTENDEE_UID_PLACEHOLDER';
  const settings = {
    checkUrl: `${page.origin}${API_BASE}/attendee/check-card`,
    key: page.config.privateKey,
    redirect: kioskRedirectUrl(page.origin || '', page.config, placeholder),
    placeholder,
    delay: KIOSK_REDIRECT_DELAY_MS,
    invalid: INVALID_CARD_CODE,
    storageKeys: KIOSK_LOCAL_STORAGE_KEYS,
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,maximum-scale=1,user-scalable=no">
<meta name="referrer" content="no-referrer">
<title>${e(page.eventTitle)} · Kiosk</title>
<style${nonce}>${STYLE}</style></head>
<body><main>
<h1>${e(page.eventTitle)}</h1>
<p>Scan your card to see your photos</p>
<form id="scan-form" autocomplete="off">
<label for="card" hidden>Card code</label>
<input id="card" name="card" type="password" inputmode="none" autocomplete="off" autofocus aria-label="Card code">
<button type="submit">Open my album</button>
<button type="button" class="secondary" id="camera" hidden>Scan with camera</button>
</form>
<video id="video" playsinline muted hidden></video>
<div id="message" role="alert" aria-live="assertive"></div>
</main>
<script type="application/json" id="kiosk-settings">${scriptJson(settings)}</script>
<script${nonce}>
(function(){
var s=JSON.parse(document.getElementById('kiosk-settings').textContent);
try{for(var i=0;i<s.storageKeys.length;i++)localStorage.removeItem(s.storageKeys[i]);sessionStorage.clear();}catch(err){}
var form=document.getElementById('scan-form'),input=document.getElementById('card'),msg=document.getElementById('message');
var busy=false;
function say(text,kind){msg.textContent=text;msg.className=kind||'';}
function code(scan){var t=String(scan).trim();if(!t)return null;var m=/[?&]attId=/i.exec(t);var i=m?m.index+m[0].length-1:t.lastIndexOf('=');var raw=(i>=0?t.slice(i+1):t).split(/[&#]/)[0]||'';
try{raw=decodeURIComponent(raw);}catch(err){}var c=raw.replace(/[-\\s]/g,'').toUpperCase();return /^[A-Z0-9]{4,40}$/.test(c)?c:null;}
function check(scan){if(busy)return;var c=code(scan);input.value='';if(!c){say(s.invalid,'error');return;}
busy=true;say('Checking…');
fetch(s.checkUrl,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({key_type:'private',key_value:s.key,card_code:c})})
.then(function(r){return r.json();}).then(function(b){
if(b&&b.status==='ok'&&b.result.valid){say('Welcome!','ok');var to=s.redirect.replace(s.placeholder,encodeURIComponent(b.result.attendee_uid));
setTimeout(function(){location.assign(to);},s.delay);return;}
busy=false;say(s.invalid,'error');input.focus();})
.catch(function(){busy=false;say('The kiosk is offline. Please try again.','error');input.focus();});}
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
.catch(function(){say('No camera is available.','error');});});}
})();
</script>
</body></html>
`;
};

const notFound = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kiosk</title></head>
<body style="font-family:system-ui,sans-serif;text-align:center;padding:48px"><h1>This kiosk link is not valid</h1>
<p>Open the kiosk link again from the console.</p></body></html>`;

/**
 * `GET /kiosk/entry?kType=evSB1|evSB2&pvId=…&pricingModel=…&kioskPreviewSize=…&miniAlbumPreviewSize=…`:
 * the kiosk entry page of the event whose private key the link carries (`download=1`: the same page
 * as one standalone HTML file, talking to the public URL). The check-card call answers any origin
 * (the downloaded file runs from `file://`): it reads no cookie, the key is in the body.
 */
export const registerKioskEntry = (
  app: FastifyInstance,
  deps: {
    resolveKey: (keyType: 'private', keyValue: string) => Promise<Principal>;
    publicUrl: string;
  },
): void => {
  const checkPath = `${API_BASE}/attendee/check-card`;
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.split('?')[0] !== checkPath) return;
    void reply.header('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') {
      return reply
        .code(204)
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', '600')
        .send();
    }
  });

  app.get('/kiosk/entry', { schema: { hide: true } }, async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const config = kioskEntryConfigFrom(query);
    const principal = config ? await deps.resolveKey('private', config.privateKey) : null;
    if (!config || !principal || principal.kind !== 'key' || !principal.event) {
      return reply
        .code(404)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(notFound);
    }
    const download = query.get('download') === '1';
    const nonce = download ? null : randomBytes(16).toString('base64');
    const html = renderKioskEntryPage({
      eventTitle: principal.event.row.full_name,
      config,
      origin: download ? deps.publicUrl : '',
      nonce,
    });
    void reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer');
    if (download) {
      const name = principal.event.row.name.replace(/[^A-Za-z0-9_-]/g, '') || 'event';
      void reply.header(
        'content-disposition',
        `attachment; filename="kiosk-${name}-${config.mode}.html"`,
      );
    } else {
      void reply.header(
        'content-security-policy',
        [
          "default-src 'none'",
          `script-src 'nonce-${nonce}'`,
          `style-src 'nonce-${nonce}'`,
          "connect-src 'self'",
          "img-src 'self' data:",
          "media-src 'self' blob: mediastream:",
          "base-uri 'none'",
          "form-action 'none'",
          "frame-ancestors 'self'",
        ].join('; '),
      );
    }
    return reply.send(html);
  });
};
