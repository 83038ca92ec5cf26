# The edge of docs/cdn.md for the compose profile `edge`: Varnish in front of the API, purged by the worker with
# xkey (PURGE_VARNISH_URLS=http://varnish). The same VCL the edge test runs (packages/test-support/src/varnish.ts),
# with the compose network as the purgers' network.
vcl 4.1;
import xkey;

backend api { .host = "api"; .port = "3000"; .connect_timeout = 2s; .first_byte_timeout = 30s; }

acl purgers { "localhost"; "172.16.0.0"/12; "10.0.0.0"/8; "192.168.0.0"/16; }

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) { return (synth(403, "Forbidden")); }
    return (synth(200, "Purged " + xkey.purge(req.http.xkey-purge)));
  }
  set req.backend_hint = api;
}

sub vcl_deliver {
  if (obj.hits > 0) { set resp.http.x-cache = "HIT"; } else { set resp.http.x-cache = "MISS"; }
}
