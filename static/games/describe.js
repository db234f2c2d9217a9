/* A game's table description, read: what the table and the replay show of a game comes from its
 * package as data (the page's config "ui", engine/table_ui.py; docs/adding-a-game.md), never from
 * a game's name here.
 *
 * A description's words are in the page's strings (T); its parts are specs, small JSON
 * expressions read against a context (the deal's view v, the match m, a result r, an action a,
 * a seat, an item $ of a list):
 *   literal                         a number, string, true/false/null as it is
 *   {"t": "key"}                    the word T[key]; {"label": "key"}: T[key] without its %(..)s
 *   {"f": "key", "v": {n: spec}}    T[key] filled in with the specs' texts
 *   {"map": "key", "key": spec}     T[key][value] (the value itself when T has no word for it)
 *   {"get": "v.marked.seat"}        a value of the context ("v.bombs.@seat": the key is the
 *                                   context's seat; "$" an item of a list, "#" its index)
 *   {"len": path} {"has": path}     a list's length; whether a value is there (not null)
 *   {"eq": [a, b]} {"in": [a, list]} {"not": s} {"and": [..]} {"or": [..]}
 *   {"if": c, "then": s, "else": s} {"case": [[c, s], ...], "else": s}
 *   {"seat": path} {"seats": path, "sep": ", "} {"side": path}   players' and sides' names
 *   {"cards": path} {"points": path}  cards as cards; points per seat as a table
 *   {"left": [path, path]}          max(0, a - b)
 *   {"obj": {k: spec}} {"with": {name: spec}, "do": spec} {"def": "name"} (the description's defs)
 *   {"cat": [..]}                   the parts one after the other
 *   {"join": [..], "sep": " · ", "empty": spec}   the parts that say something, separated
 *   {"each": path, "item": spec, "sep": "", "empty": spec}   a spec per item ($) of a list
 */
(function () {
  "use strict";

  window.LuziDescribe = function (T, ui, host) {
    var defs = (ui && ui.defs) || {};

    function get(path, ctx) {
      var parts = String(path).split(".");
      var value = ctx;
      for (var i = 0; i < parts.length; i++) {
        if (value === null || value === undefined) return undefined;
        // "@name": the key is the context's value of name ("v.bombs.@seat", "v.bombs.@#")
        value = value[parts[i].charAt(0) === "@" ? String(ctx[parts[i].slice(1)]) : parts[i]];
      }
      return value;
    }

    function pieces(x) {
      if (x && typeof x === "object" && x.rich) return x.rich;
      return x === null || x === undefined || x === "" || x === false ? [] : [String(x)];
    }

    function joined(parts, sep) {
      var out = [];
      parts.forEach(function (p, i) {
        if (i && sep) out.push(sep);
        out = out.concat(pieces(p));
      });
      var plain = out.every(function (p) { return typeof p === "string"; });
      return plain ? out.join("") : { rich: out };
    }

    function bound(ctx, names) {
      var inner = {};
      Object.keys(ctx).forEach(function (k) { inner[k] = ctx[k]; });
      Object.keys(names).forEach(function (k) { inner[k] = names[k]; });
      return inner;
    }

    function ev(spec, ctx) {
      if (spec === null || typeof spec !== "object" || Array.isArray(spec)) return spec;
      if ("t" in spec) return T[spec.t];
      if ("label" in spec) return String(T[spec.label]).replace(/\s*%\(\w+\)s/g, "");
      if ("f" in spec) {
        var values = {};
        Object.keys(spec.v || {}).forEach(function (k) { values[k] = text(ev(spec.v[k], ctx)); });
        return host.fmt(T[spec.f], values);
      }
      if ("map" in spec) {
        var key = ev(spec.key, ctx);
        var words = T[spec.map] || {};
        return words[key] || key;
      }
      if ("get" in spec) return get(spec.get, ctx);
      if ("len" in spec) { var list = get(spec.len, ctx); return list ? list.length : 0; }
      if ("has" in spec) { var h = get(spec.has, ctx); return h !== null && h !== undefined; }
      if ("eq" in spec) return ev(spec.eq[0], ctx) === ev(spec.eq[1], ctx);
      if ("in" in spec) return (ev(spec["in"][1], ctx) || []).indexOf(ev(spec["in"][0], ctx)) >= 0;
      if ("not" in spec) return !ev(spec.not, ctx);
      if ("and" in spec) return spec.and.every(function (c) { return ev(c, ctx); });
      if ("or" in spec) return spec.or.some(function (c) { return ev(c, ctx); });
      if ("if" in spec) return ev(spec["if"], ctx) ? ev(spec.then, ctx) : ("else" in spec ? ev(spec["else"], ctx) : "");
      if ("case" in spec) {
        for (var i = 0; i < spec["case"].length; i++) {
          if (ev(spec["case"][i][0], ctx)) return ev(spec["case"][i][1], ctx);
        }
        return "else" in spec ? ev(spec["else"], ctx) : "";
      }
      if ("seat" in spec) return host.seatName(get(spec.seat, ctx));
      if ("side" in spec) return host.sideName(get(spec.side, ctx));
      if ("seats" in spec) return (get(spec.seats, ctx) || []).map(host.seatName).join("sep" in spec ? spec.sep : ", ");
      if ("cards" in spec) { var c = get(spec.cards, ctx); return c ? { rich: [{ cards: c }] } : ""; }
      if ("points" in spec) return { rich: [{ points: get(spec.points, ctx) || {} }] };
      if ("left" in spec) return Math.max(0, get(spec.left[0], ctx) - get(spec.left[1], ctx));
      if ("obj" in spec) {
        var o = {};
        Object.keys(spec.obj).forEach(function (k) { o[k] = ev(spec.obj[k], ctx); });
        return o;
      }
      if ("with" in spec) {
        var names = {};
        Object.keys(spec["with"]).forEach(function (k) { names[k] = ev(spec["with"][k], ctx); });
        return ev(spec["do"], bound(ctx, names));
      }
      if ("def" in spec) return ev(defs[spec.def], ctx);
      if ("cat" in spec) return joined(spec.cat.map(function (s) { return ev(s, ctx); }), "");
      if ("join" in spec) {
        var said = spec.join.map(function (s) { return ev(s, ctx); }).filter(function (x) { return pieces(x).length; });
        if (!said.length) return "empty" in spec ? ev(spec.empty, ctx) : "";
        return joined(said, spec.sep || "");
      }
      if ("each" in spec) {
        // the items that say something; "$" is the item, "#" its index
        var items = (get(spec.each, ctx) || []).map(function (item, i) {
          return ev(spec.item, bound(ctx, { $: item, "#": i }));
        }).filter(function (x) { return pieces(x).length; });
        if (!items.length) return "empty" in spec ? ev(spec.empty, ctx) : "";
        return joined(items, spec.sep || "");
      }
      return "";
    }

    function text(x) {
      // a spec's value as plain text (cards as their codes read as cards)
      return pieces(x).map(function (p) {
        if (typeof p === "string") return p;
        return p.cards ? host.cardsText(p.cards) : "";
      }).join("");
    }

    function content(x) {
      // a spec's value for a fact row: text, or the one element it is, or a span of its parts
      var list = pieces(x);
      if (list.every(function (p) { return typeof p === "string"; })) return list.join("");
      var node = function (p) {
        if (typeof p === "string") return document.createTextNode(p);
        return p.cards ? host.cardsRow(p.cards) : host.pointsTable(p.points);
      };
      if (list.length === 1) return node(list[0]);
      var span = document.createElement("span");
      list.forEach(function (p) { span.appendChild(node(p)); });
      return span;
    }

    return {
      ui: ui || {},
      value: ev,
      text: function (spec, ctx) { return text(ev(spec, ctx)); },
      content: function (spec, ctx) { return content(ev(spec, ctx)); },
      when: function (spec, ctx) { return spec === undefined || !!ev(spec, ctx); },
      // each entry of a list (roles, facts, blocks) that applies here, with its own context
      entries: function (list, ctx) {
        var found = [];
        (list || []).forEach(function (entry) {
          var contexts = entry.each ? (get(entry.each, ctx) || []).map(function (item, i) {
            return bound(ctx, { $: item, "#": i });
          }) : [ctx];
          contexts.forEach(function (c) {
            if (entry.when === undefined || ev(entry.when, c)) found.push({ entry: entry, ctx: c });
          });
        });
        return found;
      },
    };
  };
})();
