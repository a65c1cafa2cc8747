"""Map files against protomaps' own PMTiles tools (the `pmtiles` package): an area's archive as Locify
serves it reads back, tile for tile, in their reader; a raster PMTiles their writer made (directories
compressed with real deflate, as extracts come) serves as the basemap, `LOCIFY_BASEMAP_FILE`."""
import json
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from pmtiles.reader import MmapSource, Reader, all_tiles
from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer

from conftest import ROOT, Server, TileStandIn, free_port


def call(server, token, method, path, body=None):
    request = urllib.request.Request(
        server.url + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.status, response.headers.get("Content-Type"), response.read()


@pytest.fixture
def workspace():
    path = Path(tempfile.mkdtemp(prefix="locify-e2e-maps-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def start(workspace, **env):
    tiles = TileStandIn()
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    try:
        binary = Path(os.environ.get("LOCIFY_BIN", ROOT / ".build" / "debug" / "locify"))
        server = Server(binary, workspace / "data", free_port(), tiles, None)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    server.cli("user", "create", "--email", "ada@example.com", "--name", "Ada", "--password", "analytical engine")
    token = server.cli("token", "create", "--email", "ada@example.com", "--name", "e2e").strip().splitlines()[-1]
    return server, tiles, token


def test_an_areas_archive_reads_back_in_the_reference_reader(workspace):
    server, tiles, token = start(workspace)
    try:
        box = {"south": 47.3251, "west": 8.4737, "north": 47.4149, "east": 8.6063, "max_zoom": 14}
        _, _, body = call(server, token, "POST", "/api/map-areas", dict(box, name="Zürich"))
        area = json.loads(body)["data"]
        status, kind, archive = call(server, token, "GET", f"/api/map-areas/{area['id']}.pmtiles")
        assert status == 200 and kind == "application/vnd.pmtiles"
        path = workspace / "area.pmtiles"
        path.write_bytes(archive)
        with open(path, "rb") as file:
            reader = Reader(MmapSource(file))
            header = reader.header()
            assert (header["min_zoom"], header["max_zoom"]) == (0, 14)
            assert reader.metadata()["name"] == "Zürich"
            read = dict(all_tiles(reader.get_bytes))
        assert len(read) == area["tile_count"]
        for (z, x, y), data in list(read.items())[:: max(1, len(read) // 20)]:
            _, _, served = call(server, token, "GET", f"/maps/basemap/{z}/{x}/{y}.svg")
            assert data == served, (z, x, y)
    finally:
        server.stop()
        tiles.stop()


def test_a_raster_pmtiles_extract_is_the_basemap(workspace):
    extract = workspace / "extract.pmtiles"
    made = {}
    with open(extract, "wb") as file:
        writer = Writer(file)
        for z in range(0, 9):
            for x in range(min(2 ** z, 24)):
                for y in range(min(2 ** z, 24)):
                    made[(z, x, y)] = b"\x89PNG" + f"tile {z}/{x}/{y}".encode()
        for tile_id, data in sorted((zxy_to_tileid(*key), data) for key, data in made.items()):
            writer.write_tile(tile_id, data)
        writer.finalize(
            {"tile_type": TileType.PNG, "tile_compression": Compression.NONE, "min_zoom": 0, "max_zoom": 8,
             "min_lon_e7": -1800000000, "min_lat_e7": -850000000, "max_lon_e7": 1800000000,
             "max_lat_e7": 850000000, "center_zoom": 0, "center_lon_e7": 0, "center_lat_e7": 0},
            {"name": "extract"})
    assert extract.read_bytes()[97] == 2, "the reference writer compresses its directories"
    server, tiles, token = start(workspace, LOCIFY_BASEMAP_FILE=str(extract))
    try:
        for key in [(8, 23, 23), (8, 5, 17), (3, 2, 5), (0, 0, 0)]:
            status, kind, data = call(server, token, "GET", "/maps/tiles/{}/{}/{}.png".format(*key))
            assert (status, kind, data) == (200, "image/png", made[key])
        # Beyond the extract, the tile server is asked (the stand-in has no tiles of odd columns).
        with pytest.raises(urllib.error.HTTPError) as missing:
            call(server, token, "GET", "/maps/tiles/8/101/100.png")
        assert missing.value.code == 404
        assert tiles.requests == ["/8/101/100.png"], "only for the tile the extract lacks"
    finally:
        server.stop()
        tiles.stop()
