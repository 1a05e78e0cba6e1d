import { createHash } from 'node:crypto';

/**
 * The 360° viewer's script: the equirectangular picture drawn as the inside of a sphere with
 * WebGL (one full-screen triangle; the fragment shader turns each pixel's view ray into longitude
 * and latitude and reads the picture there). Drag or arrow keys turn the view, a pinch or the
 * wheel zooms, and on phones the motion button lets the gyroscope steer. Without WebGL, or when
 * the picture cannot become a texture (another origin without CORS), the page keeps its plain
 * scrolled picture. Plain ES5 so every phone browser runs it; no user text inside (the page's
 * markup carries the texts, escaped).
 */
export const PANORAMA_SCRIPT = `
(function(){
var root=document.getElementById('pano-root'),img=document.getElementById('pano-img'),canvas=document.getElementById('pano-canvas'),motion=document.getElementById('pano-motion');
if(!root||!img||!canvas)return;
var gl=null;try{gl=canvas.getContext('webgl',{antialias:false,preserveDrawingBuffer:false});}catch(e){}
if(!gl)return;
var VS='attribute vec2 p;varying vec2 v;void main(){v=p;gl_Position=vec4(p,0.0,1.0);}';
var FS='precision highp float;varying vec2 v;uniform sampler2D t;uniform float yaw;uniform float pitch;uniform float th;uniform float aspect;'+
'void main(){vec3 d=normalize(vec3(v.x*th*aspect,v.y*th,-1.0));float cp=cos(pitch),sp=sin(pitch);d=vec3(d.x,d.y*cp-d.z*sp,d.y*sp+d.z*cp);'+
'float cy=cos(yaw),sy=sin(yaw);d=vec3(d.x*cy-d.z*sy,d.y,d.x*sy+d.z*cy);float lon=atan(d.x,-d.z);float lat=asin(clamp(d.y,-1.0,1.0));'+
'gl_FragColor=texture2D(t,vec2(fract(lon/6.2831853+0.5),0.5-lat/3.1415927));}';
function shader(type,src){var s=gl.createShader(type);gl.shaderSource(s,src);gl.compileShader(s);return gl.getShaderParameter(s,gl.COMPILE_STATUS)?s:null;}
var vs=shader(gl.VERTEX_SHADER,VS),fs=shader(gl.FRAGMENT_SHADER,FS);if(!vs||!fs)return;
var prog=gl.createProgram();gl.attachShader(prog,vs);gl.attachShader(prog,fs);gl.linkProgram(prog);
if(!gl.getProgramParameter(prog,gl.LINK_STATUS))return;
gl.useProgram(prog);
var buf=gl.createBuffer();gl.bindBuffer(gl.ARRAY_BUFFER,buf);gl.bufferData(gl.ARRAY_BUFFER,new Float32Array([-1,-1,3,-1,-1,3]),gl.STATIC_DRAW);
var loc=gl.getAttribLocation(prog,'p');gl.enableVertexAttribArray(loc);gl.vertexAttribPointer(loc,2,gl.FLOAT,false,0,0);
var U={yaw:gl.getUniformLocation(prog,'yaw'),pitch:gl.getUniformLocation(prog,'pitch'),th:gl.getUniformLocation(prog,'th'),aspect:gl.getUniformLocation(prog,'aspect')};
var DEG=Math.PI/180,yaw=0,pitch=0,fov=75,gyroYaw=0,gyroPitch=0,queued=false,ready=false;
function clampPitch(){var m=89*DEG;if(pitch>m)pitch=m;if(pitch<-m)pitch=-m;}
function draw(){queued=false;var r=Math.min(window.devicePixelRatio||1,2),w=Math.max(1,Math.round(canvas.clientWidth*r)),h=Math.max(1,Math.round(canvas.clientHeight*r));
if(canvas.width!==w||canvas.height!==h){canvas.width=w;canvas.height=h;}
gl.viewport(0,0,w,h);var p=Math.max(-89*DEG,Math.min(89*DEG,pitch+gyroPitch));
gl.uniform1f(U.yaw,yaw+gyroYaw);gl.uniform1f(U.pitch,p);gl.uniform1f(U.th,Math.tan(fov*DEG/2));gl.uniform1f(U.aspect,w/h);
gl.drawArrays(gl.TRIANGLES,0,3);}
function redraw(){if(ready&&!queued){queued=true;requestAnimationFrame(draw);}}
function texture(source){var tex=gl.createTexture();gl.bindTexture(gl.TEXTURE_2D,tex);
gl.texParameteri(gl.TEXTURE_2D,gl.TEXTURE_WRAP_S,gl.CLAMP_TO_EDGE);gl.texParameteri(gl.TEXTURE_2D,gl.TEXTURE_WRAP_T,gl.CLAMP_TO_EDGE);
gl.texParameteri(gl.TEXTURE_2D,gl.TEXTURE_MIN_FILTER,gl.LINEAR);gl.texParameteri(gl.TEXTURE_2D,gl.TEXTURE_MAG_FILTER,gl.LINEAR);
gl.texImage2D(gl.TEXTURE_2D,0,gl.RGBA,gl.RGBA,gl.UNSIGNED_BYTE,source);return gl.getError()===gl.NO_ERROR;}
var pic=new Image(),src=img.currentSrc||img.src;
try{if(new URL(src,location.href).origin!==location.origin)pic.crossOrigin='anonymous';}catch(e){}
pic.onload=function(){var max=gl.getParameter(gl.MAX_TEXTURE_SIZE),source=pic;
if(pic.naturalWidth>max||pic.naturalHeight>max){var s=Math.min(max/pic.naturalWidth,max/pic.naturalHeight),c=document.createElement('canvas');
c.width=Math.floor(pic.naturalWidth*s);c.height=Math.floor(pic.naturalHeight*s);c.getContext('2d').drawImage(pic,0,0,c.width,c.height);source=c;}
var ok=false;try{ok=texture(source);}catch(e){ok=false;}
if(!ok)return;
ready=true;root.setAttribute('data-view','sphere');draw();
if(motion&&window.DeviceOrientationEvent&&window.matchMedia&&window.matchMedia('(pointer: coarse)').matches)motion.hidden=false;};
pic.src=src;
var pointers={},pinch=0;
function count(){var n=0;for(var k in pointers)n++;return n;}
function spread(){var a=[];for(var k in pointers)a.push(pointers[k]);return a.length<2?0:Math.hypot(a[0].x-a[1].x,a[0].y-a[1].y);}
canvas.addEventListener('pointerdown',function(e){pointers[e.pointerId]={x:e.clientX,y:e.clientY};try{canvas.setPointerCapture(e.pointerId);}catch(x){}pinch=spread();});
canvas.addEventListener('pointermove',function(e){var p=pointers[e.pointerId];if(!p)return;
if(count()>=2){p.x=e.clientX;p.y=e.clientY;var d=spread();if(pinch>0&&d>0){fov=Math.max(30,Math.min(100,fov*pinch/d));}pinch=d;redraw();return;}
var k=fov*DEG/Math.max(1,canvas.clientHeight);yaw-=(e.clientX-p.x)*k;pitch+=(e.clientY-p.y)*k;clampPitch();p.x=e.clientX;p.y=e.clientY;redraw();});
function up(e){delete pointers[e.pointerId];pinch=spread();}
canvas.addEventListener('pointerup',up);canvas.addEventListener('pointercancel',up);
canvas.addEventListener('wheel',function(e){e.preventDefault();fov=Math.max(30,Math.min(100,fov+e.deltaY*0.05));redraw();},{passive:false});
canvas.addEventListener('keydown',function(e){var s=5*DEG;
if(e.key==='ArrowLeft')yaw-=s;else if(e.key==='ArrowRight')yaw+=s;else if(e.key==='ArrowUp')pitch+=s;else if(e.key==='ArrowDown')pitch-=s;
else if(e.key==='+'||e.key==='=')fov=Math.max(30,fov-5);else if(e.key==='-')fov=Math.min(100,fov+5);else return;
e.preventDefault();clampPitch();redraw();});
window.addEventListener('resize',redraw);
var base=null;
function orient(e){if(e.alpha===null||e.beta===null)return;
var a=e.alpha*DEG,b=e.beta*DEG;if(base===null)base={a:a,b:b};gyroYaw=-(a-base.a);gyroPitch=b-base.b;redraw();}
if(motion)motion.addEventListener('click',function(){
var on=motion.getAttribute('aria-pressed')==='true';
if(on){window.removeEventListener('deviceorientation',orient);motion.setAttribute('aria-pressed','false');yaw+=gyroYaw;pitch+=gyroPitch;clampPitch();gyroYaw=0;gyroPitch=0;base=null;redraw();return;}
function start(){window.addEventListener('deviceorientation',orient);motion.setAttribute('aria-pressed','true');}
var ask=window.DeviceOrientationEvent&&window.DeviceOrientationEvent.requestPermission;
if(typeof ask==='function')ask.call(window.DeviceOrientationEvent).then(function(s){if(s==='granted')start();},function(){});else start();});
})();
`;

/** The script's CSP source (`'sha256-…'`): the page allows exactly this script and no other. */
export const PANORAMA_SCRIPT_HASH = `'sha256-${createHash('sha256').update(PANORAMA_SCRIPT).digest('base64')}'`;
