#!/usr/bin/env python3
"""Writes reference.json: sunrise and sunset by the astral package, for SolarTimesTests.

Made once with astral 3.2 (PyPI) on Python 3.11:

    python3 -m venv /tmp/astral-venv && /tmp/astral-venv/bin/pip install astral==3.2
    /tmp/astral-venv/bin/python Tests/Fixtures/sun/make_reference.py > Tests/Fixtures/sun/reference.json

Like with like, as Livery's `SolarTimes` computes (the day taken in the place's mean solar
time, UTC + longitude/15 hours):

- The horizon is NOAA's: the sun's centre at a zenith of 90.833° (refraction and the sun's
  radius), so astral's elevation without refraction (`elevation(..., with_refraction=False)`)
  against -0.833°. astral's own `sunrise()` puts the horizon at 90° + 16' with its refraction
  model on top (about 90.79°), which differs from NOAA's by seconds at the equator and by
  minutes near the polar circles.
- Sunrise and sunset are the instants at which that elevation, with the sun's position taken
  at the instant itself, crosses the horizon: found by sampling it every 5 minutes, bisecting
  to the second and interpolating within it. astral's `time_of_transit()` takes the position
  at 0h UTC and once more at its first answer, which is seconds to minutes off on days of an
  hour or two of sun (high latitudes near the polar night), and on some of them finds no
  sunrise at all.
- The date is a calendar day in the place's mean solar time (UTC + longitude/15 hours): the
  sun rises between the apparent midnight before that day's apparent noon and the noon, and
  sets between the noon and the apparent midnight after.
- A half day with no crossing is a polar day when the sun is above the horizon in it, a polar
  night when it is below.

The dates of the clock changes of 2026 are found with zoneinfo, not typed in.
"""

import datetime
import json
import sys
from importlib.metadata import version
from zoneinfo import ZoneInfo

import astral
import astral.sun
from astral.julian import julianday, julianday_to_juliancentury

ZENITH = 90.833

PLACES = {
    "Gulf of Guinea": (0.0, 0.0),
    "Quito": (-0.1807, -78.4678),
    "Nairobi": (-1.2921, 36.8219),
    "Singapore": (1.3521, 103.8198),
    "London": (51.5074, -0.1278),
    "Amsterdam": (52.37, 4.89),
    "Tokyo": (35.6762, 139.6503),
    "Cape Town": (-33.9249, 18.4241),
    "Buenos Aires": (-34.6037, -58.3816),
    "Reykjavik": (64.1466, -21.9426),
    "Anchorage": (61.2181, -149.9003),
    "Ushuaia": (-54.8019, -68.3030),
    "Honolulu": (21.3069, -157.8583),
    "Mumbai": (19.0760, 72.8777),
    "Los Angeles": (34.0522, -118.2437),
    "Date line east": (0.0, 180.0),
    "Date line west": (0.0, -180.0),
    "Taveuni east": (-16.8, 180.0),
    "Taveuni west": (-16.8, -180.0),
    "Suva": (-18.1416, 178.4419),
    "Apia": (-13.8333, -171.7667),
    "Anadyr": (64.7337, 177.5089),
    "Adak": (51.8800, -176.6581),
    "Tromso": (69.6492, 18.9553),
    "Longyearbyen": (78.2232, 15.6267),
    "McMurdo": (-77.8419, 166.6863),
    "Alert": (82.5018, -62.3481),
    "North Pole": (90.0, 0.0),
    "South Pole": (-90.0, 0.0),
    "Berlin": (52.52, 13.405),
    "New York": (40.7128, -74.0060),
    "Sydney": (-33.8688, 151.2093),
    "Auckland": (-36.8485, 174.7633),
    "Kansas": (40.0, -100.0),
    "Turin": (45.07, 7.69),
    "Utqiagvik": (71.2906, -156.7887),
    "Nordkapp": (71.1685, 25.7838),
    "Dikson": (73.5069, 80.5464),
    "Novolazarevskaya": (-70.7667, 11.8333),
}

FIXED = [
    ("Gulf of Guinea", "2026-03-20"),
    ("Gulf of Guinea", "2026-06-21"),
    ("Gulf of Guinea", "2026-12-21"),
    ("Gulf of Guinea", "2000-01-01"),
    ("Quito", "2026-09-23"),
    ("Nairobi", "2026-01-15"),
    ("Singapore", "2026-07-01"),
    ("London", "2026-06-21"),
    ("London", "2026-12-21"),
    ("Amsterdam", "2026-04-10"),
    ("Tokyo", "2026-08-15"),
    ("Cape Town", "2026-06-21"),
    ("Cape Town", "2026-12-21"),
    ("Buenos Aires", "2026-03-01"),
    ("Reykjavik", "2026-06-21"),
    ("Reykjavik", "2026-12-21"),
    ("Anchorage", "2026-06-21"),
    ("Ushuaia", "2026-12-21"),
    ("Honolulu", "2026-02-01"),
    ("Mumbai", "2026-10-10"),
    ("Los Angeles", "2026-11-05"),
    ("Date line east", "2026-06-21"),
    ("Date line west", "2026-06-21"),
    ("Taveuni east", "2026-09-01"),
    ("Taveuni west", "2026-09-01"),
    ("Suva", "2026-01-01"),
    ("Apia", "2026-05-15"),
    ("Anadyr", "2026-03-20"),
    ("Adak", "2026-12-21"),
    ("Tromso", "2026-03-20"),
    ("Tromso", "2026-06-21"),
    ("Tromso", "2026-12-21"),
    ("Longyearbyen", "2026-06-21"),
    ("Longyearbyen", "2026-12-21"),
    ("McMurdo", "2026-06-21"),
    ("McMurdo", "2026-12-21"),
    ("Alert", "2026-06-21"),
    ("Alert", "2026-12-21"),
    ("North Pole", "2026-06-21"),
    ("South Pole", "2026-06-21"),
    ("Kansas", "2024-02-29"),
    ("Turin", "2050-06-21"),
    # Days of an hour or two of sun, and less, next to the polar night.
    ("Utqiagvik", "2026-11-14"),
    ("Utqiagvik", "2026-11-17"),
    ("Utqiagvik", "2026-01-22"),
    ("Utqiagvik", "2026-01-23"),
    ("Nordkapp", "2026-11-19"),
    ("Nordkapp", "2026-11-20"),
    ("Nordkapp", "2026-01-22"),
    ("Tromso", "2026-11-26"),
    ("Tromso", "2026-01-16"),
    ("Dikson", "2026-11-09"),
    ("Novolazarevskaya", "2026-05-20"),
]

ZONES = {
    "Europe/Berlin": "Berlin",
    "America/New_York": "New York",
    "Australia/Sydney": "Sydney",
    "Pacific/Auckland": "Auckland",
}


def clock_changes(zone, year):
    """The local dates in `year` on which `zone`'s UTC offset changes."""
    tz = ZoneInfo(zone)
    dates = []
    day = datetime.date(year, 1, 1)
    while day.year == year:
        start = datetime.datetime(day.year, day.month, day.day, tzinfo=tz)
        end = start + datetime.timedelta(days=1)
        if start.utcoffset() != end.utcoffset():
            dates.append(day)
        day += datetime.timedelta(days=1)
    return dates


def height(observer, t):
    """The sun's centre above NOAA's horizon at `t` (a whole second, UTC), in degrees: astral's
    elevation without refraction, less the horizon's -0.833 degrees."""
    return astral.sun.elevation(observer, t, with_refraction=False) - (90.0 - ZENITH)


def crossing(observer, start, end, rising):
    """The instant within [start, end] at which the sun's centre crosses the horizon upwards
    (`rising`) or downwards, with the sun's position taken at that instant; None when it does
    not. Sampled every 5 minutes, bisected to the second, interpolated within it."""
    step = datetime.timedelta(minutes=5)
    a = start
    while a < end:
        b = min(a + step, end)
        ha, hb = height(observer, a), height(observer, b)
        if (ha < 0 <= hb) if rising else (ha >= 0 > hb):
            while b - a > datetime.timedelta(seconds=1):
                m = a + (b - a) // 2
                m -= datetime.timedelta(microseconds=m.microsecond)
                if m <= a:
                    m = a + datetime.timedelta(seconds=1)
                if (height(observer, m) >= 0) == rising:
                    b = m
                else:
                    a = m
            ha, hb = height(observer, a), height(observer, b)
            return a + (b - a) * (ha / (ha - hb))
        a = b
    return None


def stamp(t):
    t = t.astimezone(datetime.timezone.utc) + datetime.timedelta(microseconds=500_000)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def case(name, date):
    lat, lon = PLACES[name]
    observer = astral.Observer(latitude=lat, longitude=lon, elevation=0.0)
    row = {"place": name, "latitude": lat, "longitude": lon, "date": date.isoformat()}
    # Apparent solar noon of the mean-solar day; the sun rises in the half day before it
    # (from apparent midnight) and sets in the half day after.
    midnight = datetime.datetime(date.year, date.month, date.day, tzinfo=datetime.timezone.utc)
    midnight -= datetime.timedelta(seconds=round(lon * 240))
    mean_noon = midnight + datetime.timedelta(hours=12)
    eot = astral.sun.eq_of_time(julianday_to_juliancentury(julianday(mean_noon)))
    noon = mean_noon - datetime.timedelta(seconds=round(eot * 60))
    half = datetime.timedelta(hours=12)
    rise = crossing(observer, noon - half, noon, rising=True)
    fall = crossing(observer, noon, noon + half, rising=False)
    if rise is not None and fall is not None:
        row["sunrise"] = stamp(rise)
        row["sunset"] = stamp(fall)
    else:
        # The half day without a crossing tells which: the sun above the horizon all through
        # it is a polar day, below it a polar night.
        start = noon - half if rise is None else noon
        row["polar"] = "day" if height(observer, start + half / 2) >= 0 else "night"
    return row


def main():
    cases = [case(name, datetime.date.fromisoformat(d)) for name, d in FIXED]
    for zone, name in ZONES.items():
        for day in clock_changes(zone, 2026):
            row = case(name, day)
            row["clock_change"] = zone
            cases.append(row)
    table = {
        "generator": "Tests/Fixtures/sun/make_reference.py",
        "astral": version("astral"),
        "zenith": ZENITH,
        "date": "calendar day in mean solar time (UTC + longitude/15 h)",
        "cases": cases,
    }
    json.dump(table, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
