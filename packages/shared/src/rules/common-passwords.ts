/**
 * Passwords of 8+ characters that appear at the top of public breach-frequency lists. Compared
 * case-insensitively. A short list by design: it stops the guesses attackers try first without
 * shipping a large corpus to the browser.
 */
export const commonPasswords: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '12345678910', '123123123', '11111111', '00000000',
  '88888888', '66666666', '99999999', '22222222', '55555555', '77777777', '12341234', '1q2w3e4r',
  '1q2w3e4r5t', '1qaz2wsx', 'qwertyui', 'qwertyuiop', 'qwerty123', 'qwerty12', 'qwerty1234',
  'asdfghjk', 'asdfghjkl', 'zxcvbnm1', 'password', 'password1', 'password12', 'password123',
  'password!', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa$$word', 'iloveyou', 'iloveyou1',
  'sunshine', 'princess', 'football', 'baseball', 'welcome1', 'welcome123', 'abcd1234',
  'abc12345', 'abcdefgh', 'letmein1', 'trustno1', 'superman', 'starwars', 'computer',
  'michelle', 'jennifer', 'whatever', 'dragon12', 'master12', 'mustang1', 'basketball',
  'charlie1', 'jordan23', 'liverpool', 'chelsea1', 'arsenal1', 'internet', 'samsung1',
  'changeme', 'changeme1', 'administrator', 'admin123', 'admin1234', 'adminadmin', 'root1234',
  'test1234', 'testtest', 'guest123', 'qazwsxedc', 'zaq12wsx', '1234qwer', 'q1w2e3r4',
  'q1w2e3r4t5', 'a1b2c3d4', 'aaaaaaaa', 'default1', 'monkey12', 'shadow12', 'freedom1',
  'secret123', 'loveyou1', 'hello123', 'helloworld', 'flashbulb', 'flashbulb1', 'photobooth',
  '987654321', '87654321', '147258369', '159753456', '741852963', '123qweasd', 'qweasdzxc',
  'azertyui', 'azerty123', 'lovelove', 'elephant', 'fuckyou1', 'pokemon1', 'mercedes',
  'corvette', 'danielle', 'jessica1', 'michael1', 'ashley12', 'nicole12', 'matthew1',
  'tigger12', 'soccer12', 'hockey12', 'summer12', 'spring12', 'winter12', 'autumn12',
]);

export const isCommonPassword = (password: string): boolean =>
  commonPasswords.has(password.toLowerCase());
