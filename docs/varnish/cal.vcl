vcl 4.1;
# Varnish in front of cal: keeps anonymous public reads until a write purges them by surrogate key.
# Needs varnish-modules (xkey). Set the backend to where cal listens, and PURGE_URL on cal to this
# Varnish (for example PURGE_URL=http://127.0.0.1:6081/). test/varnish.e2e-spec.ts runs this file.

import xkey;

backend cal {
  .host = "127.0.0.1";
  .port = "3000";
}

# Who may purge: cal's instances.
acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Forbidden"));
    }
    if (!req.http.xkey-purge) {
      return (synth(400, "xkey-purge header missing"));
    }
    set req.http.n-gone = xkey.purge(req.http.xkey-purge);
    return (synth(200, "Purged " + req.http.n-gone));
  }
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  # Signed-in callers and buyers with a cart (header or cal_cart cookie) see their own answers: never from the cache.
  if (req.http.Authorization || req.http.X-Cart-Token || req.http.Cookie ~ "(^|;\s*)cal_cart=") {
    return (pass);
  }
  # No other cookie means anything to cal: it would split the cache for nothing.
  unset req.http.Cookie;
  return (hash);
}

sub vcl_backend_response {
  # A waiting room's shared status (GET /queues/{id}/status) and its entries' places (GET
  # /queues/{id}/entries/{request_id}): kept as briefly as their Cache-Control says (a second),
  # never purged, so that clients polling faster than they are told to are answered from here.
  if (beresp.http.Surrogate-Key ~ "(^| )queue-[0-9]+( |$)" && beresp.http.Cache-Control ~ "public") {
    set beresp.http.xkey = beresp.http.Surrogate-Key;
    # An entry's place is asked by its one client: no older answer than its second.
    if (bereq.url ~ "/entries/") {
      set beresp.grace = 0s;
    } else {
      set beresp.grace = 1s;
    }
    return (deliver);
  }
  if (beresp.http.Surrogate-Key && beresp.http.Cache-Control ~ "public") {
    # Filed under the keys cal names; kept until a write purges them (browsers still revalidate
    # with the ETag as Cache-Control says).
    set beresp.http.xkey = beresp.http.Surrogate-Key;
    set beresp.ttl = 1d;
    set beresp.grace = 10s;
    return (deliver);
  }
  set beresp.uncacheable = true;
  set beresp.ttl = 120s;
  return (deliver);
}

sub vcl_deliver {
  unset resp.http.xkey;
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
