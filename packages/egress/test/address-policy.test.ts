import { describe, expect, it } from 'vitest';
import { isIpLiteral, isPublicAddress, isPublicImageUrl } from '../src/address-policy';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '240.0.0.1',
    '192.0.2.10',
    '198.18.0.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '[::ffff:7f00:1]',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::808:808',
    '2002:7f00:1::1',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
    'not an address',
    'example.com',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '151.101.1.69',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '[2606:4700:4700::1111]',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows public unicast %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('isIpLiteral', () => {
  it('recognises IPv4, bracketed and bare IPv6 but not host names', () => {
    expect(isIpLiteral('10.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('fc00::1')).toBe(true);
    expect(isIpLiteral('localhost')).toBe(false);
    expect(isIpLiteral('feeds.example.com')).toBe(false);
  });
});

describe('isPublicImageUrl', () => {
  it.each([
    'http://127.0.0.1/a.jpg',
    'http://0x7f.1/a.jpg',
    'http://2130706433/a.jpg',
    'http://10.1.2.3/a.jpg',
    'http://192.168.0.4:8080/a.jpg',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/a.jpg',
    'http://[::ffff:127.0.0.1]/a.jpg',
    'http://[fd00::1]/a.jpg',
    'http://localhost/a.jpg',
    'http://LOCALHOST./a.jpg',
    'http://app.localhost/a.jpg',
    'http://printer.local/a.jpg',
    'http://metadata.google.internal/a.jpg',
    'http://nas.home.arpa/a.jpg',
    'http://intranet/a.jpg',
    'http://server.lan/a.jpg',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isPublicImageUrl(url)).toBe(false);
  });

  it.each([
    'https://cdn.example.com/a.jpg',
    'http://8.8.8.8/a.jpg',
    'https://[2001:4860:4860::8888]/a.jpg',
    'https://local.news.example/a.jpg',
    'https://localhost.example.com/a.jpg',
  ])('allows %s', (url) => {
    expect(isPublicImageUrl(url)).toBe(true);
  });
});
