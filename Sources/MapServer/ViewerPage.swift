import MapRaster

/// The page at `/`: pick a style, pan a Leaflet map over the server's raster tiles, and build a static-map
/// URL for the current view. Leaflet comes from the server itself (`/leaflet/`, Debian's libjs-leaflet).
enum ViewerPage {
    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>MapRaster</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="/leaflet/leaflet.css">
        <style>
        body { margin: 0; font: 14px system-ui, sans-serif; }
        header { padding: 8px 12px; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
        #map { position: absolute; top: 88px; bottom: 0; left: 0; right: 0; }
        #url { width: 60ch; font-family: monospace; }
        </style>
        </head>
        <body>
        <header>
        <label>Style <select id="style">{{STYLE_OPTIONS}}</select></label>
        <label>Size <input id="size" value="600x400" size="9"></label>
        <label>Static map <input id="url" readonly></label>
        <a id="open" href="#" target="_blank">open</a>
        <span id="status"></span>
        </header>
        <div id="map"></div>
        <script src="/leaflet/leaflet.js"></script>
        <script>
        const select = document.getElementById('style');
        const map = L.map('map').setView([43.7384, 7.4246], 14);
        let layer = null;
        let loaded = 0, failed = 0;
        function showStyle() {
          if (layer) map.removeLayer(layer);
          layer = L.tileLayer('/styles/' + select.value + '/{z}/{x}/{y}.png', {maxZoom: \(Int(MapViewport.maximumZoomLevel)), attribution: 'MapRaster'});
          layer.on('tileload', () => { loaded++; status(); });
          layer.on('tileerror', () => { failed++; status(); });
          layer.addTo(map);
          updateURL();
        }
        function status() {
          const s = document.getElementById('status');
          s.textContent = loaded + ' tiles loaded, ' + failed + ' failed';
          s.dataset.loaded = loaded; s.dataset.failed = failed;
        }
        function updateURL() {
          const c = map.getCenter();
          const z = Math.max(0, map.getZoom() - 1);
          const url = location.origin + '/styles/' + select.value + '/static/' + c.lng.toFixed(5) + ',' +
            c.lat.toFixed(5) + ',' + z + '/' + document.getElementById('size').value + '.png';
          document.getElementById('url').value = url;
          document.getElementById('open').href = url;
        }
        select.addEventListener('change', showStyle);
        document.getElementById('size').addEventListener('input', updateURL);
        map.on('moveend', updateURL);
        showStyle();
        </script>
        </body>
        </html>
        """
}
