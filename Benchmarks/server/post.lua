-- wrk script: POST the scene file $SCENE to /render$QUERY.
local f = assert(io.open(os.getenv("SCENE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.path = "/render" .. (os.getenv("QUERY") or "")
wrk.headers["Content-Type"] = "application/json"
